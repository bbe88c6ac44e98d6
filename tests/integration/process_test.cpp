// SPDX-License-Identifier: MIT
// mcpud as a process: signals (SIGTERM, SIGHUP reload) and the command line
// (--check-config, --version, --listen on a busy port).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <regex>

#include "support/configs.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

const std::string kRelayPin = R"(
[[pins]]
name = "relay"
pin = 5
type = "digital_output"
description = "Added by a reload"
)";

TEST(Process, SigtermExitsWithStatusZeroAndLogsStopped) {
  DaemonProcess daemon;
  const int port = daemon.start_tcp();
  ASSERT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  ASSERT_TRUE(client->result("get_info").is_object());
  daemon.signal(SIGTERM);
  EXPECT_EQ(daemon.wait_exit(10s), 0);
  EXPECT_TRUE(contains(daemon.log(), "received SIGTERM"));
  EXPECT_TRUE(contains(daemon.log(), "stopped"));
  EXPECT_TRUE(client->wait_closed()) << "connected clients are closed on shutdown";
}

// MCP/U over TCP has no authentication: a listener beyond loopback says so
// where the operator reads, and a loopback one does not.
TEST(Process, ATcpListenerOpenBeyondThisMachineIsWarnedOf) {
  DaemonProcess open_to_all;
  ASSERT_TRUE(open_to_all.start({"--listen", "0.0.0.0:0", "--unix", "", "--dbus", "none"}));
  EXPECT_TRUE(open_to_all.wait_for_log(std::regex(
      R"(warning \[tcp\] 0\.0\.0\.0:\d+ is open beyond this machine with no authentication and no TLS \(listen_tls has it\))")))
      << open_to_all.log();

  DaemonProcess local;
  ASSERT_NE(local.start_tcp({"--unix", "", "--dbus", "none"}), 0);
  EXPECT_TRUE(local.wait_for_log("ready:"));
  EXPECT_EQ(local.count_in_log("is open beyond this machine"), 0u) << local.log();
}

TEST(Process, SigintAlsoExitsCleanly) {
  DaemonProcess daemon;
  ASSERT_NE(daemon.start_tcp(), 0);
  daemon.signal(SIGINT);
  EXPECT_EQ(daemon.wait_exit(10s), 0);
  EXPECT_TRUE(contains(daemon.log(), "stopped"));
}

TEST(Process, SighupReloadsAChangedConfigAndExistingConnectionsSeeIt) {
  DaemonProcess daemon;
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml({.device = "before-reload"}));
  const int port = daemon.start_tcp({"--config", config});
  ASSERT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  const json before = client->result("get_info");
  EXPECT_EQ(before["device"], "before-reload");
  EXPECT_EQ(before["pin_count"], 5);

  daemon.write_file("mcpud.toml", sim_config_toml({.device = "after-reload", .extra_pins = kRelayPin}));
  daemon.signal(SIGHUP);
  ASSERT_TRUE(daemon.wait_for_log("reloaded: 6 pins")) << "no reload logged";

  // The same connection, still open, sees the new configuration.
  const json after = client->result("get_info");
  EXPECT_EQ(after["device"], "after-reload");
  EXPECT_EQ(after["pin_count"], 6);
  const json listing = client->result("list_tools");
  EXPECT_EQ(listing["device"], "after-reload");
  ASSERT_EQ(listing["pins"].size(), 6u);
  EXPECT_EQ(listing["pins"][5]["name"], "relay");
  EXPECT_EQ(client->result("gpio_write", {{"pin", 5}, {"value", true}}),
            (json{{"pin", 5}, {"name", "relay"}, {"value", true}}));
  // The listener was kept: new clients still connect on the same port.
  auto newcomer = LineClient::connect_tcp(port);
  ASSERT_TRUE(newcomer);
  EXPECT_EQ(newcomer->result("get_info")["device"], "after-reload");
}

// Pins sampled every millisecond: some tick has always fired and waits to run.
std::string fast_sampled_pins(int count) {
  std::string pins;
  for (int i = 0; i < count; ++i) {
    pins += "\n[[pins]]\nname = \"fast" + std::to_string(i) + "\"\npin = " + std::to_string(20 + i) +
            "\ntype = \"digital_input\"\nsim = { mode = \"square\", period_ms = 4 }\n"
            "sampling = { interval_ms = 1, edges = \"both\" }\n";
  }
  return pins;
}

TEST(Process, ReloadsThatReplaceFastSampledPinsDoNotCrashTheDaemon) {
  // A reload that changes the pins frees them; a sampling tick that had already
  // fired ran afterwards on the freed pin (SIGSEGV within a few hundred reloads).
  DaemonProcess daemon;
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml({.extra_pins = fast_sampled_pins(8)}));
  const int port = daemon.start_tcp({"--config", config});
  ASSERT_NE(port, 0);
  constexpr int kReloads = 300;
  for (int n = 1; n <= kReloads; ++n) {
    daemon.write_file("mcpud.toml", sim_config_toml({.extra_pins = fast_sampled_pins(8 + n % 2)}));
    daemon.signal(SIGHUP);
    ASSERT_TRUE(daemon.wait_for_log("reloaded: ", 10s, n))
        << "reload " << n << " not logged; running " << daemon.running();
  }
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  EXPECT_EQ(client->result("get_info")["pin_count"], 5 + 8 + kReloads % 2);
}

TEST(Process, OnlyAReloadThatChangesTheToolsTellsMcpClients) {
  DaemonProcess daemon;
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml());
  const int port = daemon.start_tcp({"--config", config});
  ASSERT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  ASSERT_TRUE(client->result("initialize", {{"protocolVersion", "2025-06-18"}}).is_object());
  daemon.signal(SIGHUP);
  ASSERT_TRUE(daemon.wait_for_log("reloaded: 5 pins"));
  const auto unexpected = client->read_line(500ms);
  EXPECT_FALSE(unexpected) << "pushed although no tool changed: " << unexpected.value_or("");

  // A new pin is a new resource, not a new tool: the same generic pin tools.
  daemon.write_file("mcpud.toml", sim_config_toml({.extra_pins = kRelayPin}));
  daemon.signal(SIGHUP);
  ASSERT_TRUE(daemon.wait_for_log("reloaded: 6 pins"));
  EXPECT_FALSE(client->read_line(500ms));

  // Making a tool user-only changes what clients list.
  daemon.write_file("mcpud.toml",
                    sim_config_toml({.extra_pins = kRelayPin + "\n[mcp]\nuser_only_tools = [\"gpio_read\"]\n"}));
  daemon.signal(SIGHUP);
  const auto pushed = client->read_line(5s);
  ASSERT_TRUE(pushed) << "no tools/list_changed after a reload that made gpio_read user-only";
  EXPECT_TRUE(contains(*pushed, "notifications/tools/list_changed")) << *pushed;
}

TEST(Process, CheckConfigRefusesNestingAndSocketPathsBeyondTheLimits) {
  const std::string deep_key = "a" + [] {
    std::string dots;
    for (int i = 0; i < 30000; ++i) dots += ".a";
    return dots;
  }() + " = 1\n";
  const std::string deep_array = "x = " + std::string(30000, '[') + std::string(30000, ']') + "\n";
  const std::string long_socket = "[unix_socket]\npath = \"/tmp/" + std::string(200, 'p') + ".sock\"\n";
  // Dotted keys inside inline tables, 31 lines of them inside one array: 31,000 tables deep.
  const std::string deep_inline = [] {
    std::string key = "k";
    for (int i = 0; i < 1000; ++i) key += ".k";
    std::string text = "device = \"x\"\nfoo = [\n";
    for (int i = 0; i < 31; ++i) text += "{ " + key + " = [\n";
    text += "1\n";
    for (int i = 0; i < 31; ++i) text += "]}\n";
    return text + "]\n";
  }();
  for (const auto& [text, expected] : {std::pair{deep_key, "a key of more than 64 dotted parts"},
                                       {deep_array, "nested deeper than 64"},
                                       {deep_inline, "nested deeper than 64"},
                                       {long_socket, "unix_socket.path: is 210 characters long"}}) {
    DaemonProcess daemon;
    ASSERT_TRUE(daemon.start({"--check-config", daemon.write_file("bad.toml", text)}));
    EXPECT_EQ(daemon.wait_exit(10s), 1) << "a clean refusal, not a crash";
    EXPECT_TRUE(contains(daemon.log(), expected)) << daemon.log();
  }
}

TEST(Process, AnOverlongUnixSocketPathIsACleanErrorAtStartAndOnReload) {
  DaemonProcess start;
  ASSERT_TRUE(start.start({"--unix", "/tmp/" + std::string(150, 'q'), "--listen", "127.0.0.1:0", "--dbus=none"}));
  EXPECT_EQ(start.wait_exit(10s), 1);
  EXPECT_TRUE(contains(start.log(), "longer than 107")) << start.log();

  // A reload to such a file is refused as a whole; the daemon goes on serving.
  DaemonProcess daemon;
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml());
  const int port = daemon.start_tcp({"--config", config});
  ASSERT_NE(port, 0);
  daemon.write_file("mcpud.toml",
                    sim_config_toml() + "\n[unix_socket]\npath = \"/tmp/" + std::string(200, 'p') + "\"\n");
  daemon.signal(SIGHUP);
  ASSERT_TRUE(daemon.wait_for_log("keeping the running configuration")) << daemon.log();
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  EXPECT_EQ(client->result("get_info")["device"], "mcpud-sim");
  EXPECT_TRUE(daemon.running());
}

TEST(Process, SighupWithABrokenConfigKeepsTheRunningOne) {
  DaemonProcess daemon;
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml({.device = "steady"}));
  const int port = daemon.start_tcp({"--config", config});
  ASSERT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  ASSERT_EQ(client->result("get_info")["device"], "steady");

  // A schema error, then a TOML syntax error.
  std::string wrong_type = sim_config_toml({.device = "broken"});
  wrong_type.replace(wrong_type.find("type = \"digital_input\""), 22, "type = \"digital_out\"");
  for (const auto& broken : {wrong_type, std::string("device = \"broken\"\n[[pins]\n")}) {
    const auto kept_before = daemon.count_in_log("keeping the running configuration");
    daemon.write_file("mcpud.toml", broken);
    daemon.signal(SIGHUP);
    ASSERT_TRUE(daemon.wait_for_log("keeping the running configuration", 10s, kept_before + 1));
    const json info = client->result("get_info");
    EXPECT_EQ(info["device"], "steady");
    EXPECT_EQ(info["pin_count"], 5);
    EXPECT_EQ(client->result("gpio_read", {{"pin", 3}})["name"], "led_sense");
  }
  EXPECT_TRUE(contains(daemon.log(), "pins[1].type"));
  EXPECT_TRUE(daemon.running());
}

// A configuration path that is no regular file is refused unread: a directory
// (it read as an empty file, so a reload put the defaults in place of the
// running configuration), a FIFO (its open blocked the event loop), /dev/zero
// (read without end: gigabytes, then the daemon froze).
TEST(Process, ConfigPathsThatAreNoRegularFileAreRefusedAndAReloadKeepsTheRunningOne) {
  DaemonProcess daemon;
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml({.device = "steady"}));
  const int port = daemon.start_tcp({"--config", config});
  ASSERT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  const auto replace_with = [&](const std::function<void()>& make, const std::string& why) {
    std::filesystem::remove(config);
    make();
    const auto kept_before = daemon.count_in_log("keeping the running configuration");
    daemon.signal(SIGHUP);
    ASSERT_TRUE(daemon.wait_for_log("keeping the running configuration", 10s, kept_before + 1)) << daemon.log();
    EXPECT_TRUE(contains(daemon.log(), why));
    const json info = client->result("get_info");
    EXPECT_EQ(info["device"], "steady");
    EXPECT_EQ(info["pin_count"], 5);
  };
  replace_with([&] { std::filesystem::create_directory(config); }, "is a directory");
  replace_with([&] { ASSERT_EQ(::mkfifo(config.c_str(), 0600), 0); }, "not a regular file");
  replace_with([&] { std::filesystem::create_symlink("/dev/zero", config); }, "not a regular file");
  EXPECT_TRUE(daemon.running());

  // --check-config says the same, at once, for each.
  for (const std::string& path : {std::string("/dev/zero"), daemon.temp_dir().path().string()}) {
    DaemonProcess check;
    ASSERT_TRUE(check.start({"--check-config", path}));
    EXPECT_EQ(check.wait_exit(10s), 1) << path;
    EXPECT_TRUE(contains(check.log(), path + ": ")) << check.log();
  }
}

// mcpud --stdio whose replies cannot be written (stdout a full disk) says so
// and fails; it said "client closed stdin" and exited 0.
TEST(Process, StdioThatCannotWriteItsRepliesSaysWhyAndExitsOne) {
  DaemonProcess daemon;
  ASSERT_TRUE(daemon.start_program(
      "/bin/sh", {"-c", std::string("printf '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\\n' | ") +
                            MCPUD_BINARY + " --stdio --dbus none > /dev/full"}));
  EXPECT_EQ(daemon.wait_exit(10s), 1) << daemon.log();
  EXPECT_TRUE(contains(daemon.log(), "cannot write to stdout: No space left on device"));
  EXPECT_FALSE(contains(daemon.log(), "client closed stdin"));
}

// A unix socket path nobody listens on: the machine's own mcpud (if any) does not
// take these requests over.
std::string unanswered_socket(DaemonProcess& daemon) { return (daemon.temp_dir().path() / "nobody.sock").string(); }

// A host's probe spawn (SDK v2 `auto` runs a second `mcpud --stdio` for
// server/discover alone) leaves the outputs as they were when it exits; it
// drove the led to its safe value, under another mcpud's or a user's feet.
TEST(Process, StdioThatCalledNoToolLeavesTheOutputsAloneOnExit) {
  DaemonProcess daemon;
  const auto config = daemon.write_file("sim.toml", sim_config_toml());
  const std::string discover =
      R"({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{)"
      R"("io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})";
  ASSERT_TRUE(daemon.start_program(
      "/bin/sh", {"-c", "printf '%s\\n' '" + discover + "' | " + MCPUD_BINARY + " --stdio --dbus none --config " +
                            config + " --unix " + unanswered_socket(daemon) + " > /dev/null"}));
  EXPECT_EQ(daemon.wait_exit(10s), 0) << daemon.log();
  EXPECT_TRUE(contains(daemon.log(), "no tool was called, outputs left as they were")) << daemon.log();
  EXPECT_FALSE(contains(daemon.log(), "outputs at their safe values")) << daemon.log();
}

// One that did call a tool drives the safe values on exit, as before.
TEST(Process, StdioThatCalledAToolDrivesTheSafeValuesOnExit) {
  DaemonProcess daemon;
  const auto config = daemon.write_file("sim.toml", sim_config_toml());
  const std::string call =
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_info","arguments":{},"_meta":{)"
      R"("io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})";
  ASSERT_TRUE(daemon.start_program(
      "/bin/sh", {"-c", "printf '%s\\n' '" + call + "' | " + MCPUD_BINARY + " --stdio --dbus none --config " + config +
                            " --unix " + unanswered_socket(daemon) + " > /dev/null"}));
  EXPECT_EQ(daemon.wait_exit(10s), 0) << daemon.log();
  EXPECT_TRUE(contains(daemon.log(), "outputs at their safe values")) << daemon.log();
}

// `mcpud --stdio` on a board a running mcpud owns (its unix socket answers)
// relays to it instead of claiming the pins a second time: the reply is the
// running daemon's (device "owner"), not its own ("spawned").
TEST(Process, StdioBesideARunningDaemonRelaysToItsUnixSocket) {
  DaemonProcess owner;
  const auto socket = (owner.temp_dir().path() / "mcpud.sock").string();
  const auto owner_config = owner.write_file("owner.toml", sim_config_toml({.device = "owner"}));
  ASSERT_NE(owner.start_tcp({"--config", owner_config, "--unix", socket}), 0);
  ASSERT_TRUE(owner.wait_for_log("listening on " + socket));
  DaemonProcess spawned;
  const auto config = spawned.write_file("spawned.toml", sim_config_toml({.device = "spawned"}));
  const std::string call =
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_info","arguments":{},"_meta":{)"
      R"("io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})";
  ASSERT_TRUE(
      spawned.start_program("/bin/sh", {"-c", "printf '%s\\n' '" + call + "' | " + MCPUD_BINARY +
                                                  " --stdio --dbus none --config " + config + " --unix " + socket}));
  EXPECT_EQ(spawned.wait_exit(10s), 0) << spawned.log();
  EXPECT_TRUE(contains(spawned.log(), "a running mcpud answers on " + socket)) << spawned.log();
  EXPECT_TRUE(contains(spawned.stdout_text(), "owner")) << spawned.stdout_text();
  EXPECT_FALSE(contains(spawned.stdout_text(), "spawned")) << spawned.stdout_text();
  EXPECT_FALSE(contains(spawned.log(), "ready: device")) << "it built a board of its own: " << spawned.log();
}

TEST(Process, CheckConfigOfAValidFileExitsZeroAndPrintsTheResolvedJson) {
  DaemonProcess daemon;
  const auto config =
      daemon.write_file("good.toml", sim_config_toml({.device = "checked", .limits = "max_clients = 3"}));
  ASSERT_TRUE(daemon.start({"--check-config", config}));
  ASSERT_EQ(daemon.wait_exit(10s), 0);
  const json resolved = json::parse(daemon.stdout_text(), nullptr, false);
  ASSERT_FALSE(resolved.is_discarded()) << "stdout is not JSON: " << daemon.stdout_text();
  EXPECT_EQ(resolved["device"], "checked");
  EXPECT_EQ(resolved["pins"].size(), 5u);
  EXPECT_EQ(resolved["limits"]["max_clients"], 3);
  EXPECT_EQ(resolved["limits"]["max_line_bytes"], 65536) << "defaults are filled in";
  EXPECT_TRUE(contains(daemon.log(), "OK, 5 pins"));
}

TEST(Process, CheckConfigPrintsTheDefaultsABridgeResolvesToo) {
  DaemonProcess daemon;
  const auto config = daemon.write_file(
      "bridges.toml",
      "[[bridges]]\nid = \"esp\"\ntcp = \"127.0.0.1:4000\"\n[[bridges]]\nid = \"uno\"\nport = \"/dev/ttyACM0\"\n");
  ASSERT_TRUE(daemon.start({"--check-config", config}));
  ASSERT_EQ(daemon.wait_exit(10s), 0) << daemon.log();
  const json bridges = json::parse(daemon.stdout_text(), nullptr, false)["bridges"];
  ASSERT_EQ(bridges.size(), 2u) << daemon.stdout_text();
  EXPECT_EQ(bridges[0]["reset_wait_ms"], 0);
  EXPECT_FALSE(bridges[0].contains("baud")) << "a TCP link has no baud rate";
  EXPECT_EQ(bridges[1]["reset_wait_ms"], 600) << "a serial board resets when opened";
  EXPECT_EQ(bridges[1]["baud"], 115200);
}

TEST(Process, CheckConfigOfABadPinTypeExitsOneNamingTheKey) {
  DaemonProcess daemon;
  std::string text = sim_config_toml();
  text.replace(text.find("type = \"digital_input\""), 22, "type = \"digital_out\"");
  const auto config = daemon.write_file("bad.toml", text);
  ASSERT_TRUE(daemon.start({"--check-config", config}));
  EXPECT_EQ(daemon.wait_exit(10s), 1);
  EXPECT_TRUE(contains(daemon.log(), "pins[1].type"));
  EXPECT_TRUE(daemon.stdout_text().empty()) << daemon.stdout_text();
}

TEST(Process, CheckConfigOfAMissingFileExitsOne) {
  DaemonProcess daemon;
  const auto missing = (daemon.temp_dir().path() / "nowhere.toml").string();
  ASSERT_TRUE(daemon.start({"--check-config", missing}));
  EXPECT_EQ(daemon.wait_exit(10s), 1);
  EXPECT_TRUE(contains(daemon.log(), "nowhere.toml"));
}

TEST(Process, VersionPrintsNameAndVersion) {
  DaemonProcess daemon;
  ASSERT_TRUE(daemon.start({"--version"}));
  EXPECT_EQ(daemon.wait_exit(10s), 0);
  EXPECT_EQ(daemon.stdout_text(), "mcpud 0.1.0\n");
}

// A listening socket on a kernel-chosen loopback port, held until destroyed.
struct BusyPort {
  BusyPort() {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 1) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
      return;
    spec = "127.0.0.1:" + std::to_string(ntohs(address.sin_port));
  }
  ~BusyPort() { ::close(fd); }
  BusyPort(const BusyPort&) = delete;
  BusyPort& operator=(const BusyPort&) = delete;

  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  std::string spec;  // empty when the socket could not be made
};

TEST(Process, ListenOnAPortAlreadyInUseExitsNonZeroWithAMessage) {
  std::optional<BusyPort> busy(std::in_place);
  const std::string spec = busy->spec;
  ASSERT_FALSE(spec.empty());

  DaemonProcess daemon;
  ASSERT_TRUE(daemon.start({"--listen", spec}));
  const auto status = daemon.wait_exit(10s);
  busy.reset();
  ASSERT_TRUE(status.has_value()) << "mcpud kept running without its listener";
  EXPECT_NE(*status, 0);
  EXPECT_TRUE(contains(daemon.log(), "cannot listen on " + spec));
}

// The new listeners open beside the running ones before anything changes: one
// that cannot refuses the reload, and every running listener stays.
TEST(Process, AReloadWhoseListenerCannotOpenKeepsTheRunningListeners) {
  const BusyPort busy;
  ASSERT_FALSE(busy.spec.empty());
  DaemonProcess daemon;
  const auto with = [](const std::string& tcp, const std::string& http) {
    auto text = sim_config_toml();
    text.replace(text.find("127.0.0.1:0"), 11, tcp);
    return text + "\n[http]\nlisten = \"" + http + "\"\n";
  };
  const auto config = daemon.write_file("mcpud.toml", with("127.0.0.1:0", "127.0.0.1:0"));
  ASSERT_TRUE(daemon.start({"--config", config, "--dbus=none"}));  // no --listen: the file's addresses count
  const int port = daemon.wait_for_port();
  ASSERT_NE(port, 0) << daemon.log();
  const auto http = daemon.wait_for_log(std::regex(R"(\[http\] listening on \S+:(\d+) )"));
  ASSERT_TRUE(http) << daemon.log();
  const int http_port = std::stoi(http->at(1));

  std::size_t refusals = 0;
  for (const auto& [tcp, http_listen] :
       {std::pair{busy.spec, std::string("127.0.0.1:0")}, {"127.0.0.1:0", busy.spec}}) {
    daemon.write_file("mcpud.toml", with(tcp, http_listen) + kRelayPin);
    daemon.signal(SIGHUP);
    ASSERT_TRUE(daemon.wait_for_log("keeping the running configuration", 10s, ++refusals)) << daemon.log();
    auto client = LineClient::connect_tcp(port);
    ASSERT_TRUE(client) << "the running TCP listener was closed";
    EXPECT_EQ(client->result("get_info")["device"], "mcpud-sim");
    EXPECT_TRUE(is_error(client->call("gpio_read", {{"pin", 5}}), -32001)) << "the reload's pins were applied";
    EXPECT_TRUE(LineClient::connect_tcp(http_port)) << "the running HTTP listener was closed";
  }
  EXPECT_EQ(daemon.count_in_log("Address already in use"), 2u) << daemon.log();
  EXPECT_TRUE(daemon.running());
}

TEST(Process, ListenAddressThatIsNotAnAddressExitsNonZero) {
  DaemonProcess daemon;
  ASSERT_TRUE(daemon.start({"--listen", "nowhere:80"}));
  const auto status = daemon.wait_exit(10s);
  ASSERT_TRUE(status.has_value());
  EXPECT_NE(*status, 0);
  EXPECT_TRUE(contains(daemon.log(), "nowhere"));
}

TEST(Process, TtyWithAnUnsupportedBaudRateExitsOneNamingIt) {
  DaemonProcess daemon;
  const auto path = (daemon.temp_dir().path() / "ttyX").string();
  ASSERT_TRUE(daemon.start({"--listen", "127.0.0.1:0", "--tty", path + ":12345"}));
  EXPECT_EQ(daemon.wait_exit(10s), 1);
  EXPECT_TRUE(contains(daemon.log(), "unsupported baud rate 12345"));
}

// A reload keeps listeners whose address is unchanged; the new [limits] must
// still apply to the connections they accept afterwards.
TEST(Reload, SighupThatLowersMaxClientsAppliesToNewConnections) {
  DaemonProcess daemon;
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml());
  const int port = daemon.start_tcp({"--config", config});
  ASSERT_NE(port, 0);
  auto first = LineClient::connect_tcp(port);
  ASSERT_TRUE(first);
  ASSERT_TRUE(first->result("get_info").is_object());

  daemon.write_file("mcpud.toml", sim_config_toml({.limits = "max_clients = 1"}));
  daemon.signal(SIGHUP);
  ASSERT_TRUE(daemon.wait_for_log("reloaded:"));

  auto second = LineClient::connect_tcp(port);
  ASSERT_TRUE(second);
  const json reply = second->call("get_info", json::object(), 1);
  EXPECT_TRUE(is_error(reply, -32041, "TOO_MANY_CLIENTS")) << "max_clients = 1 after the reload, one client connected";
  EXPECT_TRUE(first->result("get_info").is_object()) << "the client already connected stays";
}

}  // namespace
}  // namespace mcpud::it
