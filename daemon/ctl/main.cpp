// SPDX-License-Identifier: MIT
// mcpuctl: manage a running mcpud over D-Bus (io.mcpud.Daemon1) without
// speaking JSON-RPC. Tables for people, --json for scripts; a one-line reason
// and a non-zero exit status on every failure.
#include <csignal>
#include <iostream>
#include <optional>

#include <sdbus-c++/Error.h>
#include <CLI/CLI.hpp>

#include "client.hpp"
#include "discover.hpp"
#include "mcpud/dbus/sdbus_compat.hpp"
#include "render.hpp"
#include "typed_arguments.hpp"

namespace {

using mcpud::ctl::Client;
using nlohmann::json;

struct Settings {
  std::string bus = "system";
  bool json_output = false;
};

// A failure's one line, with a hint for the two an operator meets first.
std::string reason(const sdbus::Error& error, const Settings& settings) {
  const std::string name = mcpud::dbus::compat::error_name(error);
  if (name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner") {
    return "mcpud is not running on the " + settings.bus + " bus (" + mcpud::dbus::kBusName + " has no owner)";
  }
  if (name == "org.freedesktop.DBus.Error.AccessDenied") {
    return "access denied: " + error.getMessage() + " (calls need root or membership in group '" +
           mcpud::dbus::kAdminGroup + "')";
  }
  if (name.starts_with(mcpud::dbus::kErrorPrefix)) {
    return error.getMessage() + " (" + name.substr(mcpud::dbus::kErrorPrefix.size()) + ")";
  }
  return error.getMessage().empty() ? name : error.getMessage() + " (" + name + ")";
}

void emit(const Settings& settings, const json& data, void (*print)(std::ostream&, const json&)) {
  if (settings.json_output) {
    std::cout << data.dump() << "\n";
  } else {
    print(std::cout, data);
  }
}

int call_tool(Client& client, const Settings& settings, const std::string& name,
              const std::vector<std::string>& words) {
  json schema = json::object();
  for (const auto& tool : client.tools(true)) {
    if (tool.get<0>() == name) schema = json::parse(tool.get<2>(), nullptr, false);
  }
  auto arguments = mcpud::ctl::typed_arguments(words, schema.is_discarded() ? json::object() : schema);
  if (!arguments) {
    std::cerr << "mcpuctl: " << arguments.error() << "\n";
    return 2;
  }
  const json result = json::parse(client.call(name, arguments->dump()), nullptr, false);
  std::cout << (settings.json_output ? result.dump() : result.dump(2)) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"mcpuctl: manage a running mcpud over D-Bus (io.mcpud.Daemon1)"};
  cli.require_subcommand(1);
  cli.fallthrough();  // --json and --bus also after the command
  Settings settings;
  cli.add_option("--bus", settings.bus, "The bus mcpud serves on: system (default) or session")
      ->check(CLI::IsMember({"system", "session"}));
  cli.add_flag("--json", settings.json_output, "Print JSON for scripts instead of tables");

  auto* status = cli.add_subcommand("status", "Device, version, uptime, listeners, clients and bridges");
  bool with_user_tools = false;
  auto* tools = cli.add_subcommand("tools", "The tools mcpud offers: name, description, parameters");
  tools->add_flag("--all", with_user_tools, "Include user-only (privileged) tools");
  auto* pins = cli.add_subcommand("pins", "The board's pins: name, pin, type, value, last sample");
  std::string tool_name;
  std::vector<std::string> words;
  auto* call = cli.add_subcommand("call", "Call a tool: mcpuctl call gpio_write pin=17 value=true");
  call->add_option("tool", tool_name, "Tool name (see mcpuctl tools)")->required();
  call->add_option("arguments", words,
                   "NAME=VALUE, typed by the tool's schema (JSON values allowed), or one JSON object");
  std::string question;
  unsigned ask_timeout_s = 60;
  auto* ask = cli.add_subcommand("ask", "Ask the AI server of the services uplink: mcpuctl ask \"What time is it?\"");
  ask->add_option("text", question, "What to ask")->required();
  ask->add_option("--timeout", ask_timeout_s, "Seconds to wait for the answer (default 60)")
      ->check(CLI::Range(1u, 3600u));
  std::size_t count = 0;
  auto* watch = cli.add_subcommand("watch", "Print pin events and tool-set changes as they happen (Ctrl-C stops)");
  watch->add_option("--count", count, "Exit after N events");
  auto* bridges = cli.add_subcommand("bridges", "Bridged microcontrollers");
  auto* clients = cli.add_subcommand("clients", "Connected MCP/U clients");
  auto* sessions = cli.add_subcommand("sessions", "Open serial sessions");
  auto* reload = cli.add_subcommand("reload", "Re-read the configuration (as SIGHUP does)");
  bool estop_reset = false;
  std::string estop_reason;
  auto* estop = cli.add_subcommand(
      "estop", "Emergency stop: every output to its safe value, nothing actuates until reset (--reset)");
  estop->add_flag("--reset", estop_reset, "Lift the emergency stop (needs root or group 'mcpud')");
  estop->add_option("--reason", estop_reason, "Why, for the audit");
  auto* approvals = cli.add_subcommand("approvals", "The emergency stop's state and the calls waiting for approval");
  std::uint64_t approval_id = 0;
  auto* approve = cli.add_subcommand("approve", "Let the waiting call ID run, once");
  approve->add_option("id", approval_id, "Its id (see mcpuctl approvals)")->required();
  auto* deny = cli.add_subcommand("deny", "Refuse the waiting call ID (its caller gets APPROVAL_DENIED)");
  deny->add_option("id", approval_id, "Its id (see mcpuctl approvals)")->required();
  bool follow = false;
  std::uint64_t audit_after = 0;
  std::size_t audit_count = 0;
  auto* audit = cli.add_subcommand("audit", "What actuated, who asked, what happened: the audit ring");
  audit->add_flag("--follow,-f", follow, "Keep printing records as they are written (Ctrl-C stops)");
  audit->add_option("--after", audit_after, "Only records after this sequence number");
  audit->add_option("--count", audit_count, "With --follow: exit after N records");
  unsigned discover_timeout_s = 3;
  auto* discover = cli.add_subcommand("discover", "The boards on the LAN: what mcpud announces through avahi-daemon");
  discover->add_option("--timeout", discover_timeout_s, "Seconds to browse at most (default 3)")
      ->check(CLI::Range(1u, 60u));
  CLI11_PARSE(cli, argc, argv);

  try {
    if (*discover) {
      emit(settings, mcpud::ctl::discover(std::chrono::seconds(discover_timeout_s)), mcpud::ctl::print_discovered);
      return 0;
    }
    Client client(settings.bus == "session" ? mcpud::dbus::BusKind::Session : mcpud::dbus::BusKind::System);
    using namespace mcpud::ctl;
    if (*status) emit(settings, status_json(client.info(), client.bridges()), print_status);
    if (*tools) emit(settings, tools_json(client.tools(with_user_tools)), print_tools);
    if (*pins) emit(settings, pins_json(client.pins()), print_pins);
    if (*bridges) emit(settings, bridges_json(client.bridges()), print_bridges);
    if (*clients) emit(settings, clients_json(client.clients()), print_clients);
    if (*sessions) emit(settings, sessions_json(client.sessions()), print_sessions);
    if (*call) return call_tool(client, settings, tool_name, words);
    if (*ask) {
      const auto reply = client.ask(question, std::chrono::seconds(ask_timeout_s));
      std::cout << (settings.json_output ? json{{"reply", reply}}.dump() : reply) << "\n";
    }
    if (*reload) {
      client.reload();
      if (settings.json_output) {
        std::cout << json{{"reloaded", true}}.dump() << "\n";
      } else {
        std::cout << "mcpud reloaded its configuration\n";
      }
    }
    if (*estop) {
      if (estop_reset) {
        client.reset_emergency_stop();
      } else {
        client.emergency_stop(estop_reason);
      }
      emit(settings, client.safety(), print_safety);
    }
    if (*approvals) emit(settings, client.safety(), print_safety);
    if (*approve || *deny) {
      if (*approve) {
        client.approve(approval_id);
      } else {
        client.deny(approval_id);
      }
      const json decided{{"id", approval_id}, {"decision", *approve ? "approved" : "denied"}};
      if (settings.json_output) {
        std::cout << decided.dump() << "\n";
      } else {
        std::cout << "call " << approval_id << " " << decided["decision"].get<std::string>() << "\n";
      }
    }
    if (*audit && !follow) {
      const json ring = client.audit(audit_after);
      if (settings.json_output) {
        std::cout << ring.dump() << "\n";
      } else {
        if (ring.value("lost", 0) > 0) print_audit(std::cout, {{"lost", ring["lost"]}});
        for (const auto& record : ring.value("records", json::array())) print_audit(std::cout, record);
      }
    }
    if (*audit && follow) {
      const bool completed = client.follow_audit(audit_after, audit_count, [&](const json& entry) {
        if (settings.json_output) {
          std::cout << entry.dump() << std::endl;
        } else {
          print_audit(std::cout, entry);
        }
      });
      if (!completed) {
        std::cerr << "mcpuctl: mcpud left the " << settings.bus << " bus\n";
        return 1;
      }
    }
    if (*watch) {
      const bool completed = client.watch(
          count,
          [&](const json& event) {
            if (settings.json_output) {
              std::cout << event.dump() << std::endl;
            } else {
              print_event(std::cout, event);
            }
          },
          [] { std::cerr << "mcpuctl: watching io.mcpud.Daemon1 signals\n"; });
      if (!completed) {
        std::cerr << "mcpuctl: mcpud left the " << settings.bus << " bus\n";
        return 1;
      }
    }
  } catch (const sdbus::Error& e) {
    std::cerr << "mcpuctl: " << reason(e, settings) << "\n";
    return 1;
  }
  return 0;
}
