// SPDX-License-Identifier: MIT
// The real mcpud on a private session bus, driven by the real mcpuctl (both
// output modes), busctl (properties, introspection) and SIGHUP.
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "bus_daemon.hpp"
#include "ctl_run.hpp"
#include "support/configs.hpp"
#include "support/fixtures.hpp"
#include "support/line_client.hpp"
#include "support/mosquitto_broker.hpp"
#include "support/scripted_device.hpp"
#include "support/serial_peer.hpp"

namespace mcpud::it {
namespace {

using nlohmann::json;

class DbusControl : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(bus_.address().empty());
    bus_.export_address();
  }

  // Starts mcpud on the private bus with `config` (default: the sim board).
  void start_daemon(const std::string& config = sim_config_toml()) {
    const auto path = daemon_.write_file("mcpud.toml", config);
    port_ = daemon_.start_tcp({"--config", path, "--dbus=session"});
    ASSERT_NE(port_, 0);
    ASSERT_TRUE(daemon_.wait_for_log("serving io.mcpud.Daemon1 on the session bus")) << daemon_.log();
  }

  CtlOutput ctl(std::vector<std::string> args) {
    args.insert(args.begin(), "--bus=session");
    return run_ctl(args);
  }

  // `busctl get-property` of one io.mcpud.Daemon1 property, e.g. `s "0.1.0"`.
  std::string property(const std::string& name) {
    const auto r = run_program("/usr/bin/busctl", {"--address=" + bus_.address(), "get-property", "io.mcpud.Daemon1",
                                                   "/io/mcpud/Daemon1", "io.mcpud.Daemon1", name});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out.substr(0, r.out.find('\n'));
  }

  BusDaemon bus_{BusDaemon::Kind::Session};
  DaemonProcess daemon_;
  int port_ = 0;
};

TEST_F(DbusControl, StatusShowsTheDeviceInBothModes) {
  start_daemon();
  const auto human = ctl({"status"});
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_TRUE(contains(human.out, "device:    mcpud-sim"));
  EXPECT_TRUE(contains(human.out, "listeners: tcp 127.0.0.1:" + std::to_string(port_)));
  EXPECT_TRUE(contains(human.out, "bridges:   none"));

  const auto machine = ctl({"status", "--json"});
  ASSERT_EQ(machine.exit_code, 0) << machine.err;
  const json status = machine.json();
  EXPECT_EQ(status["device"], "mcpud-sim") << machine.out;
  EXPECT_EQ(status["bus"], "session");
  EXPECT_EQ(status["pin_count"], 5);
  // Every registered tool counts: the sim board's eight and the serial tool set.
  EXPECT_EQ(status["tool_count"], ctl({"tools", "--json"}).json().size());
  EXPECT_GE(status["tool_count"], 8);
  EXPECT_FALSE(status["version"].get<std::string>().empty());
  EXPECT_EQ(status["listeners"], json::array({"tcp 127.0.0.1:" + std::to_string(port_)}));
  EXPECT_EQ(status["bridges"], json::array());
}

TEST_F(DbusControl, ToolsListsEveryToolWithItsParameters) {
  start_daemon();
  const auto human = ctl({"tools"});
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_TRUE(
      std::regex_search(human.out, std::regex(R"(\ngpio_write +Write HIGH or LOW[^\n]* +pin:integer value:boolean\n)")))
      << human.out;

  const json tools = ctl({"tools", "--json"}).json();
  ASSERT_TRUE(tools.is_array());
  std::set<std::string> names;
  for (const auto& tool : tools) names.insert(tool["name"].get<std::string>());
  for (const char* expected : {"get_info", "gpio_write", "gpio_read", "pwm_write", "adc_read", "get_pin_summary",
                               "get_pin_buffer", "get_pin_events", "serial_connect", "serial_read"}) {
    EXPECT_TRUE(names.contains(expected)) << expected << " missing from " << tools.dump();
  }
  const auto write = std::find_if(tools.begin(), tools.end(), [](const json& t) { return t["name"] == "gpio_write"; });
  ASSERT_NE(write, tools.end());
  EXPECT_EQ((*write)["inputSchema"]["properties"]["value"]["type"], "boolean");
  EXPECT_EQ((*write)["annotations"]["owner"], "pins");
  EXPECT_EQ((*write)["annotations"]["user_only"], false);
  // The hints MCP hosts get, for an operator's view of the same tools.
  EXPECT_EQ((*write)["annotations"]["title"], "Write a digital output");
  EXPECT_EQ((*write)["annotations"]["read_only"], false);
  EXPECT_EQ((*write)["annotations"]["destructive"], true);
  EXPECT_EQ((*write)["annotations"]["idempotent"], true);
  EXPECT_EQ((*write)["annotations"]["open_world"], false);
  EXPECT_EQ((*write)["annotations"]["hints_from"], "mcpud");
}

TEST_F(DbusControl, ToolsFollowTheConfiguredUserOnlyRule) {
  // The same rule as the MCP doors: [mcp] user_only_tools marks gpio_write.
  start_daemon(sim_config_toml() + "\n[mcp]\nuser_only_tools = [\"gpio_write\"]\n");
  const auto names_of = [](const json& tools) {
    std::set<std::string> names;
    for (const auto& tool : tools) names.insert(tool["name"].get<std::string>());
    return names;
  };
  EXPECT_FALSE(names_of(ctl({"tools", "--json"}).json()).contains("gpio_write")) << "listed only with --all";
  const json all = ctl({"tools", "--json", "--all"}).json();
  const auto write = std::find_if(all.begin(), all.end(), [](const json& t) { return t["name"] == "gpio_write"; });
  ASSERT_NE(write, all.end());
  EXPECT_EQ((*write)["annotations"]["user_only"], true);
}

TEST_F(DbusControl, CallTypesArgumentsBySchemaAndPinsShowTheResult) {
  start_daemon();
  const auto call = ctl({"call", "gpio_write", "pin=2", "value=true", "--json"});
  ASSERT_EQ(call.exit_code, 0) << call.err;
  EXPECT_EQ(call.json(), (json{{"name", "led"}, {"pin", 2}, {"value", true}}));

  const auto read = ctl({"call", "gpio_read", R"({"pin": 3})", "--json"});
  ASSERT_EQ(read.exit_code, 0) << read.err;
  EXPECT_EQ(read.json()["value"], true);  // led_sense loops back led

  const json pins = ctl({"pins", "--json"}).json();
  ASSERT_EQ(pins.size(), 5u) << pins.dump();
  EXPECT_EQ(pins[0]["name"], "led");
  EXPECT_EQ(pins[0]["value"], 1.0);
  EXPECT_EQ(pins[4]["type"], "adc_input");
  EXPECT_TRUE(pins[4].contains("sample_timestamp_ms")) << pins.dump();

  const auto human = ctl({"pins"});
  EXPECT_TRUE(std::regex_search(human.out,
                                std::regex(R"(NAME +PIN +TYPE +VALUE +LAST SAMPLE\nled +2 +digital_output +1 +-\n)")))
      << human.out;
}

// The wire keeps SI units (degC, Pa); mcpuctl pins shows what people read.
TEST_F(DbusControl, PinsShowSensorsInDegreesCelsiusHectopascalAndPercent) {
  start_daemon(sim_config_toml({.extra_pins = R"(
[[pins]]
name = "air_temp"
pin = 40
type = "sensor_input"
sim = { quantity = "temperature", waveform = "constant", min = 21.5, max = 21.5 }
[[pins]]
name = "air_pressure"
pin = 41
type = "sensor_input"
sim = { quantity = "pressure", waveform = "constant", min = 101325, max = 101325 }
[[pins]]
name = "air_humidity"
pin = 42
type = "sensor_input"
sim = { quantity = "humidity", waveform = "constant", min = 45.5, max = 45.5 }
)"}));
  const auto human = ctl({"pins"});
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_TRUE(std::regex_search(human.out, std::regex(R"(air_temp +40 +sensor_input +21\.5 °C +-\n)"))) << human.out;
  EXPECT_TRUE(std::regex_search(human.out, std::regex(R"(air_pressure +41 +sensor_input +1013\.25 hPa +-\n)")))
      << human.out;
  EXPECT_TRUE(std::regex_search(human.out, std::regex(R"(air_humidity +42 +sensor_input +45\.5 %RH +-\n)")))
      << human.out;
  // Columns line up though "°" is two bytes: the row's last column starts under LAST SAMPLE.
  const auto line_of = [&](const std::string& start) {
    const auto at = human.out.find(start);
    return human.out.substr(at, human.out.find('\n', at) - at);
  };
  const auto column = [](const std::string& line, std::size_t byte) {
    return std::count_if(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(byte),
                         [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
  };
  const auto header = line_of("NAME"), temperature = line_of("air_temp");
  EXPECT_EQ(column(temperature, temperature.rfind(" -") + 1), column(header, header.find("LAST SAMPLE")))
      << header << "\n"
      << temperature;
  const json pins = ctl({"pins", "--json"}).json();
  EXPECT_EQ(pins[6]["unit"], "Pa") << "the wire keeps the SI unit";
  EXPECT_EQ(pins[6]["value"], 101325.0);
}

TEST_F(DbusControl, FailedCallsExitNonZeroWithOneLineReason) {
  start_daemon();
  const auto missing = ctl({"call", "gpio_write", "pin=99", "value=true"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "mcpuctl: Pin not found: 99 (PinNotFound)\n");
  EXPECT_EQ(missing.out, "");

  const auto mistyped = ctl({"call", "gpio_write", "pin=two", "value=true"});
  EXPECT_EQ(mistyped.exit_code, 2);
  EXPECT_EQ(mistyped.err, "mcpuctl: pin: expected an integer, got 'two'\n");

  const auto unknown = ctl({"call", "no_such_tool"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_TRUE(contains(unknown.err, "(UnknownTool)"));

  const auto invalid = ctl({"call", "pwm_write", "pin=18", "duty=300"});
  EXPECT_EQ(invalid.exit_code, 1);
  EXPECT_TRUE(contains(invalid.err, "arguments.duty: 300 is above the maximum 255 (InvalidArguments)")) << invalid.err;
}

TEST_F(DbusControl, CallToolRefusesMalformedArgumentsAndLivesOn) {
  start_daemon();
  const auto busctl_call = [&](const std::string& arguments) {
    return run_program("/usr/bin/busctl",
                       {"--address=" + bus_.address(), "call", "io.mcpud.Daemon1", "/io/mcpud/Daemon1",
                        "io.mcpud.Daemon1", "CallTool", "ss", "gpio_read", arguments});
  };
  const auto deep = busctl_call("{\"pin\":" + std::string(100, '[') + std::string(100, ']') + "}");
  EXPECT_NE(deep.exit_code, 0);
  EXPECT_TRUE(contains(deep.err, "arguments_json: nested deeper than 64 levels")) << deep.err;
  const auto not_object = busctl_call("[1]");
  EXPECT_TRUE(contains(not_object.err, "arguments_json: expected a JSON object")) << not_object.err;
  const auto wrong_type = busctl_call("{\"pin\":\"x\"}");
  EXPECT_TRUE(contains(wrong_type.err, "arguments.pin: expected integer, got string")) << wrong_type.err;
  const auto fine = busctl_call("{\"pin\":2}");
  EXPECT_EQ(fine.exit_code, 0) << fine.err;
  EXPECT_EQ(fine.out, "s \"{\\\"name\\\":\\\"led\\\",\\\"pin\\\":2,\\\"value\\\":false}\"\n");
}

TEST_F(DbusControl, ClientsAndClientCountSeeTcpClients) {
  start_daemon();
  EXPECT_EQ(property("ClientCount"), "u 0");
  auto client = LineClient::connect_tcp(port_, 5s);
  ASSERT_TRUE(client);
  ASSERT_TRUE(eventually([&] { return property("ClientCount") == "u 1"; }, 10s));
  const json clients = ctl({"clients", "--json"}).json();
  ASSERT_EQ(clients.size(), 1u) << clients.dump();
  EXPECT_EQ(clients[0]["transport"], "tcp");
  EXPECT_TRUE(clients[0]["peer"].get<std::string>().starts_with("127.0.0.1:"));
}

TEST_F(DbusControl, ClientsShowAConnectedFleetUplink) {
  ASSERT_TRUE(mosquitto_installed())
      << "/usr/sbin/mosquitto is missing: scripts/install-deps.sh installs it (scripts/deps/mqtt.list)";
  MosquittoBroker broker;
  ASSERT_TRUE(broker.start());
  start_daemon(sim_config_toml({.extra_pins = "[uplink.fleet]\nbroker = \"" + broker.address() + "\"\n"}));
  json clients;
  ASSERT_TRUE(eventually(
      [&] {
        clients = ctl({"clients", "--json"}).json();
        return clients.size() == 1;
      },
      10s))
      << clients.dump();
  EXPECT_EQ(clients[0]["transport"], "fleet");
  EXPECT_EQ(clients[0]["peer"], broker.address() + " mcpud/mcpud-sim");
}

TEST_F(DbusControl, PropertiesAreReadable) {
  start_daemon();
  EXPECT_TRUE(std::regex_match(property("Version"), std::regex(R"(s "\d+\.\d+\.\d+.*")")));
  EXPECT_EQ(property("DeviceName"), "s \"mcpud-sim\"");
  EXPECT_TRUE(std::regex_match(property("Uptime"), std::regex(R"(t \d+)")));
}

TEST_F(DbusControl, BridgesAndSerialSessionsAreEmptyWhenNoneExist) {
  start_daemon();
  EXPECT_EQ(ctl({"bridges"}).out, "no bridges\n");
  EXPECT_EQ(ctl({"sessions", "--json"}).json(), json::array());
  EXPECT_EQ(ctl({"bridges", "--json"}).json(), json::array());
}

TEST_F(DbusControl, BridgesShowOfflineBridgesAndTheNamesADeviceListedThatWereRefused) {
  auto device = ScriptedDevice::on_tcp(
      {.extra_tools = json::array({{{"name", "a\nb"}}, {{"name", "evil\u202Etxt"}}, {{"name", "read_touch"}}})});
  ASSERT_TRUE(device);
  start_daemon(sim_config_toml() +
               "\n[[bridges]]\nid = \"evil\"\ntcp = \"127.0.0.1:" + std::to_string(device->tcp_port()) +
               "\"\n[[bridges]]\nid = \"gone\"\ntcp = \"127.0.0.1:1\"\n" + "retry_max_ms = 200\n");
  json rows;
  ASSERT_TRUE(eventually(
      [&] {
        rows = ctl({"bridges", "--json"}).json();
        return rows.size() == 2 && rows[0]["tool_count"].get<int>() > 0;
      },
      10s))
      << rows.dump();
  EXPECT_EQ(rows[0]["id"], "evil");
  EXPECT_EQ(rows[0]["details"]["online"], true);
  EXPECT_EQ(rows[0]["details"]["refused_count"], 3);
  EXPECT_EQ(rows[0]["details"]["refused"][0],
            "tool 'a\\x0ab': '\\x0a' is not one of A-Z a-z 0-9 _ - . (the characters of MCP tool names)");
  EXPECT_EQ(rows[1]["id"], "gone") << "a bridge without tools is listed too";
  EXPECT_EQ(rows[1]["tool_count"], 0);
  EXPECT_EQ(rows[1]["details"]["online"], false);

  const std::string table = ctl({"bridges"}).out;
  EXPECT_TRUE(table.starts_with("ID    TOOLS  STATE    REFUSED  LINK")) << table;
  EXPECT_TRUE(std::regex_search(table, std::regex("\nevil  [0-9]+ +online +3 +tcp 127\\.0\\.0\\.1:"))) << table;
  EXPECT_TRUE(std::regex_search(table, std::regex("\ngone  0 +offline +0 +tcp 127\\.0\\.0\\.1:1 +"))) << table;
  EXPECT_TRUE(contains(table, "evil refused tool 'evil\\u202etxt': '\\u202e' is not one of")) << table;
  EXPECT_TRUE(contains(table, "evil refused tool 'read_touch': listed twice (the first is kept)\n")) << table;
  EXPECT_FALSE(contains(table, "\u202E")) << "no formatting character reaches the terminal";
}

TEST_F(DbusControl, BusCallersAreOneClientForSerialSessionsAndTheOperatorSeesEverySession) {
  SerialPeer bus_port(daemon_.temp_dir().path() / "ttyBUS");
  SerialPeer tcp_port(daemon_.temp_dir().path() / "ttyTCP");
  const auto ptys = daemon_.temp_dir().path().string() + "/tty*";
  start_daemon(sim_config_toml() + "\n[serial]\nallowed_ports = [\"" + ptys + "\"]\n");
  auto tcp = LineClient::connect_tcp(port_);
  ASSERT_TRUE(tcp);
  const std::string tcp_session = tcp->result("serial_connect", {{"port", tcp_port.link()}})["session_id"];

  // Each mcpuctl command is a bus connection of its own: a session one opens, the next uses.
  const auto opened = ctl({"call", "serial_connect", "port=" + bus_port.link(), "--json"});
  ASSERT_EQ(opened.exit_code, 0) << opened.err;
  const std::string bus_session = opened.json()["session_id"];
  const auto sent = ctl({"call", "serial_send", "session_id=" + bus_session, "data=hello", "--json"});
  ASSERT_EQ(sent.exit_code, 0) << sent.err;
  EXPECT_EQ(bus_port.read(6), "hello\n");

  // Neither may use the other's session; the operator's list shows both.
  const auto foreign = ctl({"call", "serial_send", "session_id=" + tcp_session, "data=x"});
  EXPECT_EQ(foreign.exit_code, 1);
  EXPECT_TRUE(contains(foreign.err, "(UnknownSession)")) << foreign.err;
  EXPECT_TRUE(is_error(tcp->call("serial_read", {{"session_id", bus_session}}), -32030, "UNKNOWN_SESSION"));
  std::set<std::string> listed;
  for (const auto& row : ctl({"sessions", "--json"}).json()) listed.insert(row["session_id"].get<std::string>());
  EXPECT_EQ(listed, (std::set<std::string>{tcp_session, bus_session}));
}

TEST_F(DbusControl, WatchPrintsPinEventsAsTheyHappen) {
  SimConfig config;
  config.extra_pins = R"(
[[pins]]
name = "blinker"
pin = 40
type = "digital_input"
sim = { mode = "square", period_ms = 100 }
sampling = { interval_ms = 10, edges = "both" }
)";
  start_daemon(sim_config_toml(config));
  const auto watch = ctl({"watch", "--count", "3", "--json"});
  ASSERT_EQ(watch.exit_code, 0) << watch.err;
  std::istringstream lines(watch.out);
  std::string line;
  int events = 0;
  while (std::getline(lines, line)) {
    const json event = json::parse(line);
    EXPECT_EQ(event["signal"], "PinEvent") << line;
    EXPECT_TRUE(event["timestamp_ms"].get<std::int64_t>() > 0);
    ++events;
  }
  EXPECT_EQ(events, 3);
}

TEST_F(DbusControl, ReloadThatChangesTheToolsSignalsToolsChanged) {
  // Outputs only: no pin events to wait through.
  const std::string outputs_only =
      "device = \"quiet\"\nboard = \"sim\"\nlisten = [\"127.0.0.1:0\"]\n"
      "[[pins]]\nname = \"led\"\npin = 2\ntype = \"digital_output\"\n";
  start_daemon(outputs_only);
  DaemonProcess watch;
  ASSERT_TRUE(watch.start_program(MCPUCTL_BINARY, {"--bus=session", "watch", "--count", "1", "--json"}));
  ASSERT_TRUE(watch.wait_for_log("watching io.mcpud.Daemon1 signals"));

  // The first sampled pin brings the sampling tools (and no pin events: no thresholds).
  daemon_.write_file("mcpud.toml", outputs_only +
                                       "[[pins]]\nname = \"temp\"\npin = 26\ntype = \"adc_input\"\n"
                                       "sampling = { interval_ms = 1000 }\n");
  daemon_.signal(SIGHUP);
  ASSERT_EQ(watch.wait_exit(20s), 0) << watch.log();
  EXPECT_EQ(json::parse(watch.stdout_text()), (json{{"signal", "ToolsChanged"}}));
  const json pins = ctl({"pins", "--json"}).json();
  ASSERT_EQ(pins.size(), 2u) << pins.dump();
  EXPECT_EQ(pins[1]["name"], "temp");
}

TEST_F(DbusControl, WatchEndsWhenTheDaemonStops) {
  start_daemon();
  DaemonProcess watch;
  ASSERT_TRUE(watch.start_program(MCPUCTL_BINARY, {"--bus=session", "watch", "--json"}));
  ASSERT_TRUE(watch.wait_for_log("watching io.mcpud.Daemon1 signals"));
  daemon_.signal(SIGTERM);
  ASSERT_EQ(daemon_.wait_exit(), 0);
  EXPECT_EQ(watch.wait_exit(20s), 1);
  EXPECT_TRUE(contains(watch.log(), "mcpuctl: mcpud left the session bus\n")) << watch.log();
}

TEST_F(DbusControl, ReloadCommandReportsABrokenConfiguration) {
  start_daemon();
  EXPECT_EQ(ctl({"reload"}).out, "mcpud reloaded its configuration\n");
  daemon_.write_file("mcpud.toml", "pins = 3\n");
  const auto failed = ctl({"reload"});
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_TRUE(contains(failed.err, "(ReloadFailed)")) << failed.err;
  EXPECT_EQ(ctl({"status", "--json"}).json()["pin_count"], 5);  // the running configuration stays
}

TEST_F(DbusControl, BashCompletionOffersToolsAndTheirParameters) {
  start_daemon();
  const auto complete = [](const std::string& words, int current) {
    const std::string script = "PATH=" + std::filesystem::path(MCPUCTL_BINARY).parent_path().string() +
                               ":$PATH; source " MCPUCTL_COMPLETION "; COMP_WORDS=(" + words +
                               "); COMP_CWORD=" + std::to_string(current) + "; _mcpuctl; echo \"${COMPREPLY[*]}\"";
    return run_program("/bin/bash", {"-c", script}).out;
  };
  EXPECT_EQ(complete("mcpuctl st", 1), "status\n");
  EXPECT_EQ(complete("mcpuctl as", 1), "ask\n");
  EXPECT_EQ(complete("mcpuctl a", 1), "ask approvals approve audit\n");
  EXPECT_EQ(complete("mcpuctl ask --t", 2), "--timeout\n");
  EXPECT_EQ(complete("mcpuctl --bus=session call gpio_w", 3), "gpio_write\n");
  EXPECT_EQ(complete("mcpuctl --bus=session call pwm_write ''", 4), "dry_run= duty= frequency_hz= hold_ms= pin=\n");
  EXPECT_EQ(complete("mcpuctl --bus=session call pwm_write f", 4), "frequency_hz=\n");
}

// What `mcpuctl --help` and each command's --help name (the binary's own word,
// from CLI11): every command and every option in mcpuctl(1).
TEST(CtlManual, NamesEveryCommandAndOptionTheHelpDoes) {
  std::ifstream file(MCPUCTL_MANUAL);
  std::stringstream text;
  text << file.rdbuf();
  const std::string manual = text.str();
  const auto listed = [](const std::string& help, const std::string& section) {
    std::vector<std::string> names;
    const auto start = help.find(section + ":\n");
    if (start == std::string::npos) return names;
    std::istringstream lines(help.substr(start + section.size() + 2));
    static const std::regex entry(R"(^  (?:-\w,)?(--?[\w-]+|[a-z][\w-]*)\b)");
    std::smatch found;
    for (std::string line; std::getline(lines, line) && !line.empty();)
      if (std::regex_search(line, found, entry) && found[1] != "-h" && found[1] != "--help") names.push_back(found[1]);
    return names;
  };
  const auto roff = [](std::string option) {  // --reset is written \-\-reset
    for (std::size_t at = 0; (at = option.find('-', at)) != std::string::npos; at += 2) option.insert(at, "\\");
    return option;
  };
  const auto commands = listed(run_ctl({"--help"}).out, "Subcommands");
  ASSERT_GE(commands.size(), 15u) << "the help lists the commands no longer as this test reads them";
  for (const auto& command : commands) {
    EXPECT_TRUE(std::regex_search(manual, std::regex("\n\\.B[IR]? \"?" + command + "\\b")))
        << "mcpuctl(1) has no entry for the command " << command;
    for (const auto& option : listed(run_ctl({command, "--help"}).out, "Options"))
      EXPECT_NE(manual.find(roff(option)), std::string::npos)
          << "mcpuctl(1) does not name " << command << " " << option;
  }
  for (const auto& option : listed(run_ctl({"--help"}).out, "Options"))
    EXPECT_NE(manual.find(roff(option)), std::string::npos) << "mcpuctl(1) does not name " << option;
}

TEST_F(DbusControl, LosingTheBusLeavesMcpUClientsServed) {
  start_daemon();
  auto client = LineClient::connect_tcp(port_, 5s);
  ASSERT_TRUE(client);
  bus_.kill();
  ASSERT_TRUE(daemon_.wait_for_log("D-Bus control is off until restart")) << daemon_.log();
  EXPECT_EQ(client->call("gpio_read", json{{"pin", 2}}, 1)["result"]["name"], "led");
  EXPECT_TRUE(daemon_.running());
}

TEST_F(DbusControl, MissingDaemonIsAOneLineFailure) {
  const auto r = ctl({"status"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "mcpuctl: mcpud is not running on the session bus (io.mcpud.Daemon1 has no owner)\n");
}

// The interface the daemon exports is the one the XML file in the repository
// describes: same methods, arguments, signals and properties (one string per
// member with its arguments; sorted, as sd-bus orders members by name).
std::vector<std::string> members_of(const std::string& xml) {
  const auto begin = xml.find("<interface name=\"io.mcpud.Daemon1\">");
  const auto end = xml.find("</interface>", begin);
  const std::string body = xml.substr(begin, end - begin);
  static const std::regex kTag(R"(<(method|signal|property|arg)\s([^>]*)>)");
  static const std::regex kAttribute(R"re((\w+)="([^"]*)")re");
  std::vector<std::string> members;
  for (auto it = std::sregex_iterator(body.begin(), body.end(), kTag); it != std::sregex_iterator(); ++it) {
    std::map<std::string, std::string> attributes;
    const std::string text = (*it)[2];
    for (auto a = std::sregex_iterator(text.begin(), text.end(), kAttribute); a != std::sregex_iterator(); ++a) {
      attributes[(*a)[1]] = (*a)[2];
    }
    const std::string kind = (*it)[1];
    if (kind == "arg" && !members.empty()) {
      if (!attributes.contains("direction") && members.back().starts_with("method")) attributes["direction"] = "in";
      members.back() += " (" + attributes["name"] + " " + attributes["type"] + " " + attributes["direction"] + ")";
      continue;
    }
    members.push_back(kind + " " + attributes["name"] + " " + attributes["type"] + " " + attributes["access"]);
  }
  std::sort(members.begin(), members.end());
  return members;
}

TEST_F(DbusControl, IntrospectionMatchesTheInterfaceFile) {
  start_daemon();
  const auto live = run_program("/usr/bin/busctl", {"--address=" + bus_.address(), "introspect", "--xml-interface",
                                                    "io.mcpud.Daemon1", "/io/mcpud/Daemon1"});
  ASSERT_EQ(live.exit_code, 0) << live.err;
  std::ifstream file(MCPUD_DBUS_XML);
  std::stringstream documented;
  documented << file.rdbuf();
  const auto expected = members_of(documented.str());
  ASSERT_EQ(expected.size(), 22u);  // 15 methods, 3 signals, 4 properties
  EXPECT_EQ(members_of(live.out), expected) << live.out;
}

TEST_F(DbusControl, SensorValuesArriveWithTheirUnit) {
  start_daemon(sim_config_toml() +
               "[[pins]]\nname = \"room_temp\"\npin = 40\ntype = \"sensor_input\"\n"
               "sim = { quantity = \"temperature\", waveform = \"constant\", min = 21.5, max = 21.5 }\n");
  const json pins = ctl({"pins", "--json"}).json();
  const auto sensor = std::find_if(pins.begin(), pins.end(), [](const json& p) { return p["name"] == "room_temp"; });
  ASSERT_NE(sensor, pins.end()) << pins.dump();
  EXPECT_EQ((*sensor)["type"], "sensor_input");
  EXPECT_EQ((*sensor)["value"], 21.5);
  EXPECT_EQ((*sensor)["unit"], "degC");

  const auto read = ctl({"call", "sensor_read", R"({"pin": 40})", "--json"});
  ASSERT_EQ(read.exit_code, 0) << read.err;
  EXPECT_EQ(read.json(),
            (json{{"name", "room_temp"}, {"pin", 40}, {"value", 21.5}, {"unit", "degC"}, {"quantity", "temperature"}}));
}

}  // namespace
}  // namespace mcpud::it
