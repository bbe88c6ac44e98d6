// SPDX-License-Identifier: MIT
#include "bus_daemon.hpp"

#include <sys/stat.h>

#include <csignal>

#include <cstdlib>

#include <gtest/gtest.h>

namespace mcpud::it {
namespace {

std::string config_text(BusDaemon::Kind kind, const std::string& socket, const std::string& policy_file) {
  std::string text =
      "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
      " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n<busconfig>\n";
  text += kind == BusDaemon::Kind::Session ? "<type>session</type>\n" : "<type>system</type>\n";
  text += "<listen>unix:path=" + socket + "</listen>\n<auth>EXTERNAL</auth>\n";
  if (kind == BusDaemon::Kind::Session) {
    // Like the session bus, but any user may connect (the policy tests run
    // clients as nobody).
    text +=
        "<policy context=\"default\"><allow user=\"*\"/><allow own=\"*\"/><allow send_destination=\"*\"/>"
        "<allow eavesdrop=\"true\"/></policy>\n";
  } else {
    // The stock system bus default policy (/usr/share/dbus-1/system.conf).
    text +=
        "<policy context=\"default\"><allow user=\"*\"/><deny own=\"*\"/><deny send_type=\"method_call\"/>"
        "<allow send_type=\"signal\"/><allow send_requested_reply=\"true\" send_type=\"method_return\"/>"
        "<allow send_requested_reply=\"true\" send_type=\"error\"/><allow receive_type=\"method_call\"/>"
        "<allow receive_type=\"method_return\"/><allow receive_type=\"error\"/><allow receive_type=\"signal\"/>"
        "<allow send_destination=\"org.freedesktop.DBus\" send_interface=\"org.freedesktop.DBus\"/>"
        "<allow send_destination=\"org.freedesktop.DBus\" send_interface=\"org.freedesktop.DBus.Introspectable\"/>"
        "<allow send_destination=\"org.freedesktop.DBus\" send_interface=\"org.freedesktop.DBus.Properties\"/>"
        "<deny send_destination=\"org.freedesktop.DBus\" send_interface=\"org.freedesktop.DBus\" "
        "send_member=\"UpdateActivationEnvironment\"/>"
        "<deny send_destination=\"org.freedesktop.DBus\" send_interface=\"org.freedesktop.DBus.Debug.Stats\"/>"
        "<deny send_destination=\"org.freedesktop.DBus\" send_interface=\"org.freedesktop.systemd1.Activator\"/>"
        "</policy>\n";
    if (!policy_file.empty()) text += "<include>" + policy_file + "</include>\n";
  }
  return text + "</busconfig>\n";
}

}  // namespace

BusDaemon::BusDaemon(Kind kind, const std::string& policy_file) : kind_(kind) {
  const auto dir = process_.temp_dir().path();
  directory_ = dir;
  ::chmod(dir.c_str(), 0755);
  const auto config = process_.write_file("bus.conf", config_text(kind, (dir / "bus").string(), policy_file));
  if (!process_.start_program("/usr/bin/dbus-daemon", {"--config-file=" + config, "--nofork", "--print-address"}))
    return;
  Deadline deadline = 10s;
  while (!deadline.expired()) {
    const auto out = process_.stdout_text();
    if (const auto newline = out.find('\n'); newline != std::string::npos) {
      address_ = out.substr(0, newline);
      return;
    }
    if (!process_.running()) break;
    std::this_thread::sleep_for(10ms);
  }
  ADD_FAILURE() << "dbus-daemon did not print its address: " << process_.log();
}

void BusDaemon::export_address() const {
  ::setenv(kind_ == Kind::Session ? "DBUS_SESSION_BUS_ADDRESS" : "DBUS_SYSTEM_BUS_ADDRESS", address_.c_str(), 1);
}

}  // namespace mcpud::it

namespace mcpud::it {

void BusDaemon::kill() {
  process_.signal(SIGKILL);
  process_.wait_exit();
}

}  // namespace mcpud::it
