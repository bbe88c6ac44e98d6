// SPDX-License-Identifier: MIT
// LAN discovery through the real binaries and a real avahi-daemon: two network
// namespaces joined by a veth pair, the board's and a peer's, each with its
// own system bus (the stock system policy with avahi's) and avahi-daemon.
// mcpud announces in the board's namespace; mcpuctl discover and avahi-browse
// look from the peer's, so every record crosses the link as mDNS.
// Needs root (network namespaces) and avahi-daemon: ctest -L lan.
#include <unistd.h>

#include <csignal>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "../dbus/bus_daemon.hpp"
#include "../dbus/ctl_run.hpp"
#include "support/daemon_process.hpp"

namespace mcpud::it::lan {
namespace {

using nlohmann::json;

constexpr const char* kAvahiPolicy = "/usr/share/dbus-1/system.d/avahi-dbus.conf";

// A simulated board named `device` with MCP/U on `listen` (a TOML array).
std::string board_toml(const std::string& device, const std::string& listen) {
  return "device = \"" + device + "\"\nboard = \"sim\"\nlisten = " + listen + "\n";
}

bool run(const std::vector<std::string>& args) {
  const auto done = run_program(args.front(), {args.begin() + 1, args.end()});
  EXPECT_EQ(done.exit_code, 0) << args[0] << " " << args[1] << ": " << done.err;
  return done.exit_code == 0;
}

// One side of the link: a network namespace, its system bus and avahi-daemon.
class Side {
 public:
  Side(const std::string& role, const std::string& address)
      : netns_("mcpud-" + role + "-" + std::to_string(::getpid())),
        link_(role.substr(0, 4) + std::to_string(::getpid())),
        address_(address),
        bus_(BusDaemon::Kind::System, kAvahiPolicy) {}
  ~Side() {
    avahi_.reset();
    run_program("/usr/sbin/ip", {"netns", "delete", netns_});
  }

  const std::string& netns() const { return netns_; }
  const std::string& link() const { return link_; }
  const std::string& address() const { return address_; }
  std::string bus_variable() const { return "DBUS_SYSTEM_BUS_ADDRESS=" + bus_.address(); }

  // avahi-daemon in the namespace, with a mount namespace of its own for its
  // pid file; true once it has registered its host name.
  bool start_avahi() {
    avahi_ = std::make_unique<DaemonProcess>();
    const auto config = avahi_->write_file(
        "avahi.conf", "[server]\nhost-name=" + netns_ + "\nuse-ipv6=no\nallow-interfaces=" + link_ +
                          "\nenable-dbus=yes\n[wide-area]\nenable-wide-area=no\n[publish]\npublish-hinfo=no\n"
                          "publish-workstation=no\n");
    const std::string avahi =
        "mount -t tmpfs tmpfs /run && mkdir /run/avahi-daemon && exec avahi-daemon "
        "--no-drop-root --no-chroot --no-rlimits --no-proc-title -f " +
        config;
    if (!avahi_->start_program("/usr/bin/env",
                               {bus_variable(), "ip", "netns", "exec", netns_, "unshare", "-m", "sh", "-c", avahi}))
      return false;
    return avahi_->wait_for_log("Server startup complete", 20s);
  }
  void stop_avahi() {
    avahi_->signal(SIGTERM);
    avahi_->wait_exit();
  }

  // mcpud in this namespace, on this side's system bus.
  bool start_mcpud(DaemonProcess& mcpud, const std::string& config_path) const {
    return mcpud.start_program("/usr/bin/env", {bus_variable(), "ip", "netns", "exec", netns_, MCPUD_BINARY, "--config",
                                                config_path, "--dbus", "none", "--unix", ""});
  }

  // What mcpuctl discover --json finds from here.
  json discover() const {
    const auto found = run_program("/usr/bin/env", {bus_variable(), MCPUCTL_BINARY, "discover", "--json"});
    EXPECT_EQ(found.exit_code, 0) << found.err;
    return found.json();
  }
  // Discovers until `wanted` holds of what is found, for at most 10 s.
  template <class Predicate>
  json discover_until(Predicate wanted) const {
    json found;
    for (Deadline deadline = 10s; !deadline.expired();) {
      found = discover();
      if (wanted(found)) break;
    }
    return found;
  }

 private:
  std::string netns_;
  std::string link_;
  std::string address_;
  BusDaemon bus_;
  std::unique_ptr<DaemonProcess> avahi_;
};

class LanDiscovery : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root for network namespaces";
    ASSERT_FALSE(board_.link().empty());
    for (const auto* side : {&board_, &peer_}) ASSERT_TRUE(run({"/usr/sbin/ip", "netns", "add", side->netns()}));
    ASSERT_TRUE(run({"/usr/sbin/ip", "link", "add", board_.link(), "netns", board_.netns(), "type", "veth", "peer",
                     "name", peer_.link(), "netns", peer_.netns()}));
    for (const auto* side : {&board_, &peer_}) {
      ASSERT_TRUE(
          run({"/usr/sbin/ip", "-n", side->netns(), "addr", "add", side->address() + "/24", "dev", side->link()}));
      ASSERT_TRUE(run({"/usr/sbin/ip", "-n", side->netns(), "link", "set", side->link(), "up"}));
      ASSERT_TRUE(run({"/usr/sbin/ip", "-n", side->netns(), "link", "set", "lo", "up"}));
    }
    ASSERT_TRUE(board_.start_avahi());
    ASSERT_TRUE(peer_.start_avahi());
  }

  std::string board_config(const std::string& extra = "") {
    return mcpud_.write_file("mcpud.toml", board_toml("bench-pi", R"(["0.0.0.0:3000", "127.0.0.1:3001"])") + extra +
                                               "[http]\nlisten = \"0.0.0.0:8080\"\ntoken = \"secret\"\n");
  }

  Side board_{"board", "10.231.0.1"};
  Side peer_{"peer", "10.231.0.2"};
  DaemonProcess mcpud_;
};

json find(const json& found, const std::string& name, const std::string& service) {
  for (const auto& entry : found)
    if (entry["name"] == name && entry["service"] == service) return entry;
  return nullptr;
}

TEST_F(LanDiscovery, EveryListenerBeyondLoopbackIsAnnouncedWithWhatAClientNeeds) {
  ASSERT_TRUE(board_.start_mcpud(mcpud_, board_config()));
  ASSERT_TRUE(mcpud_.wait_for_log("announced 'bench-pi' on the LAN: _mcpu._tcp port 3000, _mcp._tcp port 8080", 20s))
      << mcpud_.log();
  const auto found = peer_.discover_until([](const json& f) { return f.is_array() && f.size() >= 2; });
  ASSERT_EQ(found.size(), 2u) << found.dump() << "\nnothing for 127.0.0.1:3001";
  const auto mcpu = find(found, "bench-pi", "mcpu");
  ASSERT_TRUE(mcpu.is_object()) << found.dump();
  EXPECT_EQ(mcpu["address"], "10.231.0.1");
  EXPECT_EQ(mcpu["port"], 3000);
  EXPECT_EQ(mcpu["txt"], json({{"txtvers", "1"}, {"tls", "no"}, {"auth", "none"}}));
  EXPECT_EQ(mcpu["url"], "mcpu://" + board_.netns() + ".local:3000");
  const auto mcp = find(found, "bench-pi", "mcp");
  ASSERT_TRUE(mcp.is_object()) << found.dump();
  EXPECT_EQ(mcp["port"], 8080);
  EXPECT_EQ(mcp["txt"], json({{"txtvers", "1"}, {"path", "/mcp"}, {"tls", "no"}, {"auth", "bearer"}}));
  EXPECT_EQ(mcp["url"], "http://" + board_.netns() + ".local:8080/mcp");

  // avahi's own browser, a client mcpud did not write, sees the same records.
  const auto browsed = run_program("/usr/bin/env", {peer_.bus_variable(), "avahi-browse", "-rpt", "_mcp._tcp"});
  EXPECT_NE(browsed.out.find("bench-pi;_mcp._tcp;local;" + board_.netns() + ".local;10.231.0.1;8080;"),
            std::string::npos)
      << browsed.out << browsed.err;
  EXPECT_NE(browsed.out.find("\"path=/mcp\""), std::string::npos) << browsed.out;
}

TEST_F(LanDiscovery, TheAnnouncementGoesWithTheConfigurationAndOnShutdown) {
  ASSERT_TRUE(board_.start_mcpud(mcpud_, board_config()));
  ASSERT_TRUE(mcpud_.wait_for_log("announced 'bench-pi'", 20s)) << mcpud_.log();
  EXPECT_EQ(peer_.discover_until([](const json& f) { return f.size() == 2; }).size(), 2u);

  board_config("[discovery]\nannounce = false\n");
  mcpud_.signal(SIGHUP);
  ASSERT_TRUE(mcpud_.wait_for_log("withdrawn from the LAN")) << mcpud_.log();
  EXPECT_EQ(peer_.discover_until([](const json& f) { return f.empty(); }), json::array());

  board_config("[discovery]\nname = \"greenhouse\"\n");
  mcpud_.signal(SIGHUP);
  ASSERT_TRUE(mcpud_.wait_for_log("announced 'greenhouse'", 20s)) << mcpud_.log();
  EXPECT_TRUE(find(peer_.discover_until([](const json& f) { return f.size() == 2; }), "greenhouse", "mcp").is_object());

  mcpud_.signal(SIGTERM);
  ASSERT_EQ(mcpud_.wait_exit(), 0) << mcpud_.log();
  EXPECT_EQ(peer_.discover_until([](const json& f) { return f.empty(); }), json::array())
      << "the records are withdrawn when mcpud stops";
}

TEST_F(LanDiscovery, ANameTakenOnTheLanIsAnnouncedUnderAnother) {
  ASSERT_TRUE(board_.start_mcpud(mcpud_, board_config()));
  ASSERT_TRUE(mcpud_.wait_for_log("announced 'bench-pi'", 20s)) << mcpud_.log();
  DaemonProcess second;
  const auto config = second.write_file("mcpud.toml", board_toml("bench-pi", R"(["0.0.0.0:3000"])"));
  ASSERT_TRUE(peer_.start_mcpud(second, config));
  ASSERT_TRUE(second.wait_for_log("'bench-pi' is taken on the LAN: announcing as 'bench-pi #2'", 20s)) << second.log();
  const auto found = board_.discover_until([](const json& f) { return f.size() == 3; });
  EXPECT_TRUE(find(found, "bench-pi #2", "mcpu").is_object()) << found.dump();
  EXPECT_TRUE(find(found, "bench-pi", "mcp").is_object()) << found.dump();
}

TEST_F(LanDiscovery, AnAvahiDaemonThatRestartsIsToldAgain) {
  ASSERT_TRUE(board_.start_mcpud(mcpud_, board_config()));
  ASSERT_TRUE(mcpud_.wait_for_log("announced 'bench-pi'", 20s)) << mcpud_.log();
  board_.stop_avahi();
  ASSERT_TRUE(mcpud_.wait_for_log("avahi-daemon left the system bus")) << mcpud_.log();
  ASSERT_TRUE(board_.start_avahi());
  ASSERT_TRUE(mcpud_.wait_for_log("announced 'bench-pi'", 20s, 2)) << mcpud_.log();
  EXPECT_EQ(peer_.discover_until([](const json& f) { return f.size() == 2; }).size(), 2u);
}

TEST_F(LanDiscovery, ADaemonOnLoopbackAloneAnnouncesNothingAndNeedsNoBus) {
  const auto config = mcpud_.write_file("mcpud.toml", board_toml("bench-pi", R"(["127.0.0.1:3000"])"));
  ASSERT_TRUE(board_.start_mcpud(mcpud_, config));
  ASSERT_TRUE(mcpud_.wait_for_log("ready:")) << mcpud_.log();
  EXPECT_EQ(peer_.discover(), json::array());
  EXPECT_EQ(mcpud_.count_in_log("[discovery]"), 0u) << mcpud_.log();
}

// A [[bridges]] table with `discover` dials the board whose announced name
// matches, wherever the LAN says it is, and re-exports its tools.
TEST_F(LanDiscovery, ABridgeFindsItsBoardByTheNameItAnnounces) {
  DaemonProcess board;
  const auto board_file = board.write_file("mcpud.toml", board_toml("uno-greenhouse", R"(["0.0.0.0:3000"])"));
  ASSERT_TRUE(peer_.start_mcpud(board, board_file));
  ASSERT_TRUE(board.wait_for_log("announced 'uno-greenhouse'", 20s)) << board.log();
  const auto config = mcpud_.write_file(
      "mcpud.toml", board_toml("bench-pi", R"(["127.0.0.1:3000"])") +
                        "[[bridges]]\nid = \"uno\"\ndiscover = \"uno-*\"\n[[bridges]]\nid = \"other\"\n"
                        "discover = \"nothing-*\"\n");
  ASSERT_TRUE(board_.start_mcpud(mcpud_, config));
  ASSERT_TRUE(mcpud_.wait_for_log(
      std::regex(R"(\[bridge\] uno: connected to 'uno-greenhouse' on 10\.231\.0\.2:3000: [1-9]\d* tools)"), 20s))
      << mcpud_.log();
  EXPECT_EQ(mcpud_.count_in_log("other:"), 1u) << "a pattern nothing matches dials nothing";
  EXPECT_EQ(mcpud_.count_in_log("other: no board on the LAN announces a name like 'nothing-*' yet"), 1u)
      << mcpud_.log();
}

TEST(LanDiscoveryWithoutAvahi, MissingAvahiIsSaidOnceAndNothingFails) {
  BusDaemon bus(BusDaemon::Kind::System, kAvahiPolicy);
  DaemonProcess mcpud;
  const auto config = mcpud.write_file("mcpud.toml", board_toml("bench-pi", R"(["0.0.0.0:0"])"));
  ASSERT_TRUE(mcpud.start_program("/usr/bin/env", {"DBUS_SYSTEM_BUS_ADDRESS=" + bus.address(), MCPUD_BINARY, "--config",
                                                   config, "--dbus", "none", "--unix", ""}));
  ASSERT_TRUE(mcpud.wait_for_log("ready:")) << mcpud.log();
  EXPECT_TRUE(mcpud.wait_for_log("no avahi-daemon on the system bus")) << mcpud.log();
  const auto found =
      run_program("/usr/bin/env", {"DBUS_SYSTEM_BUS_ADDRESS=" + bus.address(), MCPUCTL_BINARY, "discover"});
  EXPECT_EQ(found.exit_code, 1);
  EXPECT_NE(found.err.find("avahi-daemon is not running on the system bus"), std::string::npos) << found.err;
}

}  // namespace
}  // namespace mcpud::it::lan
