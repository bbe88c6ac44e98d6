// SPDX-License-Identifier: MIT
// Unit tests of the configuration: defaults, key-path errors, cross-checks, --tty specs and the built-in board.
#include "config_parse_helpers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace mcpud::config {
namespace {

using nlohmann::json;

// The error message of parsing `toml` (named "test.toml"), or "" when it parses.
TEST(Config, NestingBeyondTheBoundIsRefusedBeforeParsingButStringsAreNotCounted) {
  std::string deep_key = "a";
  for (int i = 0; i < 100; ++i) deep_key += ".a";
  EXPECT_EQ(error_of(deep_key + " = 1\n"), "test.toml:1: a key of more than 64 dotted parts");
  EXPECT_EQ(error_of("x = " + std::string(100, '[') + std::string(100, ']') + "\n"),
            "test.toml:1: arrays or inline tables nested deeper than 64");
  // Brackets and dots inside strings (escaped quotes, multi-line strings) are text, not nesting.
  EXPECT_EQ(error_of("device = \"a\\\"" + std::string(100, '[') + "\"\n"),
            "test.toml: device: is 102 characters long, more than the maximum 64");
  EXPECT_EQ(error_of("device = '''" + std::string(100, '.') + "'''\n").find("dotted"), std::string::npos);
  EXPECT_EQ(error_of("[mcp]\npage_bytes = 9000 # a.b.c[[[[\n"), "");
}

// Each dotted key inside an inline table opens a table more, and a value's
// arrays and inline tables go on across lines: all of it counts.
TEST(Config, DottedKeysInsideInlineTablesCountAsNestingAcrossLines) {
  std::string dotted = "k";
  for (int i = 0; i < 40; ++i) dotted += ".k";
  std::string deep = "foo = [\n";
  for (int i = 0; i < 3; ++i) deep += "{ " + dotted + " = [\n";
  deep += "1\n";
  for (int i = 0; i < 3; ++i) deep += "]}\n";
  deep += "]\n";
  EXPECT_EQ(error_of(deep), "test.toml:3: arrays or inline tables nested deeper than 64");
  EXPECT_EQ(error_of("x = [\n" + std::string(70, '[') + "\n" + std::string(70, ']') + "\n]\n"),
            "test.toml:2: arrays or inline tables nested deeper than 64");
  // Within the bound, and floats' and strings' dots, are fine (the schema then speaks).
  EXPECT_EQ(error_of("x = { a.b.c = [1.5, 2.5], d.e = { f.g = \"h.i.j\" } }\n").find("nested"), std::string::npos);
}

TEST(Config, EmptyTextGivesAllDefaults) {
  const auto config = parsed("");
  EXPECT_EQ(config.device, "mcpud");
  EXPECT_EQ(config.board.kind, pins::BoardKind::Sim);
  EXPECT_EQ(config.listen, std::vector<std::string>{"127.0.0.1:3000"});
  EXPECT_TRUE(config.ttys.empty());
  EXPECT_EQ(config.log_level, "info");
  EXPECT_EQ(config.limits.max_line_bytes, 65536u);
  EXPECT_EQ(config.limits.client_queue_bytes, 1048576u);
  EXPECT_EQ(config.limits.max_clients, 256u);
  EXPECT_TRUE(config.board.pins.empty());
}

TEST(Config, ResolvedDocumentHasTheDefaultsFilledIn) {
  const auto config = parsed(R"(
[[pins]]
name = "a"
pin = 1
type = "adc_input"
sampling = { interval_ms = 100 }
)");
  const auto& r = config.resolved;
  EXPECT_EQ(r.at("device"), "mcpud");
  EXPECT_EQ(r.at("limits").at("max_line_bytes"), 65536);
  EXPECT_EQ(r.at("tty"), json::array());
  EXPECT_EQ(r.at("pins")[0].at("description"), "");
  EXPECT_EQ(r.at("pins")[0].at("sampling"), json::parse(R"({"interval_ms":100,"buffer_size":0,"summary":true,
      "hysteresis":0,"edges":"none","event_capacity":64})"));
}

TEST(Config, ReadsEveryTopLevelKey) {
  const auto config = parsed(R"(
device = "greenhouse"
board = "sim"
listen = ["0.0.0.0:3000", "[::1]:3001"]
tty = ["/dev/ttyGS0:115200", "/dev/ttyUSB0"]
log_level = "debug"
[limits]
max_line_bytes = 1024
client_queue_bytes = 8192
max_clients = 3
)");
  EXPECT_EQ(config.device, "greenhouse");
  EXPECT_EQ(config.listen, (std::vector<std::string>{"0.0.0.0:3000", "[::1]:3001"}));
  ASSERT_EQ(config.ttys.size(), 2u);
  EXPECT_EQ(config.ttys[0].path, "/dev/ttyGS0");
  EXPECT_EQ(config.ttys[0].baud, 115200u);
  EXPECT_EQ(config.ttys[1].path, "/dev/ttyUSB0");
  EXPECT_EQ(config.ttys[1].baud, 115200u);
  EXPECT_EQ(config.log_level, "debug");
  EXPECT_EQ(config.limits.max_line_bytes, 1024u);
  EXPECT_EQ(config.limits.client_queue_bytes, 8192u);
  EXPECT_EQ(config.limits.max_clients, 3u);
}

TEST(Config, HttpAllowedHostsAreReadAndDefaultToNone) {
  EXPECT_TRUE(parsed("").mcp.http.allowed_hosts.empty());
  const auto config = parsed("[http]\nallowed_hosts = [\"pi.local\", \"Pi.Local:8080\", \"[fd00::7]\"]\n");
  EXPECT_EQ(config.mcp.http.allowed_hosts, (std::vector<std::string>{"pi.local", "Pi.Local:8080", "[fd00::7]"}));
}

TEST(Config, TheDashboardKeyMayNotBeTheMcpToken) {
  EXPECT_EQ(parsed("[http]\ntoken = \"a\"\ndashboard_token = \"b\"\n").mcp.http.dashboard_token, "b");
  EXPECT_EQ(error_of("[http]\ntoken = \"same\"\ndashboard_token = \"same\"\n"),
            "test.toml: http.dashboard_token: must differ from http.token (an MCP client holding that one could "
            "approve its own calls)");
}

TEST(Config, HttpAllowedHostsThatAreNoHostNamesAreRefusedNamingTheEntry) {
  for (const std::string bad :
       {"http://pi.local", "me@pi.local", "pi.local/mcp", "pi.local:", "pi.local:65536", "", "[fd00::7"}) {
    EXPECT_EQ(error_of("[http]\nallowed_hosts = [\"ok\", \"" + bad + "\"]\n"),
              "test.toml: http.allowed_hosts[1]: '" + bad +
                  "' is not a host name with an optional :port, e.g. pi.local or pi.local:8080")
        << bad;
  }
}

TEST(Config, ReadsPinsOfEveryType) {
  const auto config = parsed(R"(
[[pins]]
name = "pump"
pin = 17
type = "digital_output"
description = "Water pump relay"
initial = true
safe_value = false

[[pins]]
name = "fan"
pin = 18
type = "pwm_output"
pwm = { frequency_hz = 25000 }
safe_duty = 64

[[pins]]
name = "door"
pin = 27
type = "digital_input"
sim = { mode = "square", period_ms = 4000, level = true }
sampling = { interval_ms = 100, buffer_size = 10, edges = "rising", event_capacity = 5 }

[[pins]]
name = "soil"
pin = 34
type = "adc_input"
sim = { waveform = "triangle", min = 100, max = 1000, period_ms = 20000, seed = 9, scale_mv = 2.5, offset = -3 }
sampling = { interval_ms = 500, summary = false, thresholds = [200.0, 900], hysteresis = 20.0 }
)");
  ASSERT_EQ(config.board.pins.size(), 4u);
  const auto& pump = config.board.pins[0];
  EXPECT_EQ(pump.name, "pump");
  EXPECT_EQ(pump.pin, 17);
  EXPECT_EQ(pump.type, hal::PinType::DigitalOutput);
  EXPECT_EQ(pump.description, "Water pump relay");
  EXPECT_TRUE(pump.initial);
  EXPECT_EQ(pump.safe_value, std::optional<bool>(false));
  EXPECT_FALSE(pump.sampling);

  const auto& fan = config.board.pins[1];
  EXPECT_EQ(fan.type, hal::PinType::PwmOutput);
  EXPECT_EQ(fan.frequency_hz, 25000u);
  EXPECT_EQ(fan.safe_duty, std::optional<double>(64));
  EXPECT_FALSE(fan.safe_value);

  const auto& door = config.board.pins[2];
  EXPECT_EQ(door.type, hal::PinType::DigitalInput);
  EXPECT_EQ(door.sim_input.mode, hal::SimInputSpec::Mode::Square);
  EXPECT_EQ(door.sim_input.period_ms, 4000u);
  EXPECT_TRUE(door.sim_input.level);
  ASSERT_TRUE(door.sampling);
  EXPECT_EQ(door.sampling->interval_ms, 100u);
  EXPECT_EQ(door.sampling->buffer_size, 10u);
  EXPECT_EQ(door.sampling->edges, EdgeMode::Rising);
  EXPECT_EQ(door.sampling->event_capacity, 5u);
  EXPECT_TRUE(door.sampling->summary);
  EXPECT_FALSE(door.sampling->thresholds);

  const auto& soil = config.board.pins[3];
  EXPECT_EQ(soil.type, hal::PinType::AdcInput);
  EXPECT_EQ(soil.sim_analog.waveform, hal::SimAnalogSpec::Waveform::Triangle);
  EXPECT_EQ(soil.sim_analog.min, 100);
  EXPECT_EQ(soil.sim_analog.max, 1000);
  EXPECT_EQ(soil.sim_analog.period_ms, 20000u);
  EXPECT_EQ(soil.sim_analog.seed, 9u);
  EXPECT_EQ(soil.sim_analog.scale_mv, 2.5);
  EXPECT_EQ(soil.sim_analog.offset, -3);
  ASSERT_TRUE(soil.sampling);
  EXPECT_FALSE(soil.sampling->summary);
  ASSERT_TRUE(soil.sampling->thresholds);
  EXPECT_EQ(soil.sampling->thresholds->low, 200);
  EXPECT_EQ(soil.sampling->thresholds->high, 900);
  EXPECT_EQ(soil.sampling->thresholds->hysteresis, 20);
  EXPECT_EQ(soil.sampling->edges, EdgeMode::None);
}

TEST(Config, PinDefaultsAreFilledIn) {
  const auto config = parsed(R"(
[[pins]]
name = "o"
pin = 1
type = "digital_output"
[[pins]]
name = "p"
pin = 2
type = "pwm_output"
[[pins]]
name = "i"
pin = 3
type = "digital_input"
[[pins]]
name = "a"
pin = 4
type = "adc_input"
)");
  ASSERT_EQ(config.board.pins.size(), 4u);
  EXPECT_FALSE(config.board.pins[0].initial);
  EXPECT_FALSE(config.board.pins[0].safe_value);
  EXPECT_EQ(config.board.pins[0].description, "");
  EXPECT_EQ(config.board.pins[1].frequency_hz, 1000u);
  EXPECT_FALSE(config.board.pins[1].safe_duty);
  EXPECT_EQ(config.board.pins[2].sim_input.mode, hal::SimInputSpec::Mode::Constant);
  EXPECT_FALSE(config.board.pins[2].sim_input.level);
  EXPECT_FALSE(config.board.pins[2].sampling);
  EXPECT_EQ(config.board.pins[3].sim_analog.waveform, hal::SimAnalogSpec::Waveform::Sine);
  EXPECT_EQ(config.board.pins[3].sim_analog.max, 4095);
}

TEST(Config, EdgesNamesMapToModesAsTable) {
  const std::vector<std::pair<std::string, EdgeMode>> cases = {
      {"none", EdgeMode::None}, {"rising", EdgeMode::Rising}, {"falling", EdgeMode::Falling}, {"both", EdgeMode::Both}};
  for (const auto& [name, mode] : cases) {
    const auto config =
        parsed("[[pins]]\nname = \"i\"\npin = 1\ntype = \"digital_input\"\nsampling = { interval_ms = 10, edges = \"" +
               name + "\" }\n");
    ASSERT_EQ(config.board.pins.size(), 1u) << name;
    EXPECT_EQ(config.board.pins[0].sampling->edges, mode) << name;
  }
}

TEST(Config, LoopbackFromAnOutputIsAccepted) {
  const auto config = parsed(R"(
[[pins]]
name = "sense"
pin = 3
type = "digital_input"
sim = { mode = "loopback", from = "led" }
[[pins]]
name = "led"
pin = 2
type = "digital_output"
)");
  ASSERT_EQ(config.board.pins.size(), 2u);
  EXPECT_EQ(config.board.pins[0].sim_input.mode, hal::SimInputSpec::Mode::Loopback);
  EXPECT_EQ(config.board.pins[0].sim_input.loopback_from, "led");
}

struct ErrorCase {
  const char* name;
  std::string toml;
  std::string error;  // the whole message
};

TEST(Config, ErrorsNameTheKeyPathAsTable) {
  const std::string out0 = "[[pins]]\nname = \"o\"\npin = 1\ntype = \"digital_output\"\n";
  const std::vector<ErrorCase> cases = {
      {"unknown pin type", out0 + "[[pins]]\nname = \"x\"\npin = 2\ntype = \"digital_out\"\n",
       R"(test.toml: pins[1].type: must be one of "digital_output", "digital_input", "pwm_output", "adc_input", "sensor_input", got "digital_out")"},
      {"missing pin number", "[[pins]]\nname = \"x\"\ntype = \"adc_input\"\n",
       "test.toml: pins[0].pin: required property is missing"},
      {"pin number as a string", "[[pins]]\nname = \"x\"\npin = \"5\"\ntype = \"adc_input\"\n",
       "test.toml: pins[0].pin: expected integer, got string"},
      {"pin number too large", "[[pins]]\nname = \"x\"\npin = 65536\ntype = \"adc_input\"\n",
       "test.toml: pins[0].pin: 65536 is above the maximum 65535"},
      {"bad log level", "log_level = \"loud\"\n",
       R"(test.toml: log_level: must be one of "debug", "info", "warn", "error", got "loud")"},
      {"unknown board", "board = \"rpi\"\n",
       R"(test.toml: board: must be one of "sim", "raspberrypi", "linux", "none", got "rpi")"},
      {"pins on board none", "board = \"none\"\n" + out0,
       R"(test.toml: pins: board "none" has no pins; remove them or choose a board)"},
      {"line cap too small", "[limits]\nmax_line_bytes = 100\n",
       "test.toml: limits.max_line_bytes: 100 is below the minimum 256"},
      {"safe_duty over 255", "[[pins]]\nname = \"p\"\npin = 1\ntype = \"pwm_output\"\nsafe_duty = 300\n",
       "test.toml: pins[0].safe_duty: 300 is above the maximum 255"},
      {"initial not a boolean", out0 + "initial = 1\n", "test.toml: pins[0].initial: expected boolean, got integer"},
      {"sampling without interval",
       "[[pins]]\nname = \"a\"\npin = 1\ntype = \"adc_input\"\nsampling = { buffer_size = 5 }\n",
       "test.toml: pins[0].sampling.interval_ms: required property is missing"},
      {"bad edges",
       "[[pins]]\nname = \"a\"\npin = 1\ntype = \"digital_input\"\nsampling = { interval_ms = 5, edges = \"up\" }\n",
       R"(test.toml: pins[0].sampling.edges: must be one of "none", "rising", "falling", "both", got "up")"},
      {"one threshold",
       "[[pins]]\nname = \"a\"\npin = 1\ntype = \"adc_input\"\nsampling = { interval_ms = 5, thresholds = [1.0] }\n",
       "test.toml: pins[0].sampling.thresholds: has 1 item, less than the minimum 2"},
      {"bad pin name", "[[pins]]\nname = \"9lives\"\npin = 1\ntype = \"adc_input\"\n",
       "test.toml: pins[0].name: does not match pattern ^[A-Za-z_][A-Za-z0-9_.-]*$"},
      {"tty not absolute", "tty = [\"ttyGS0\"]\n",
       "test.toml: tty[0]: 'ttyGS0': expected an absolute device path, e.g. /dev/ttyGS0:115200"},
      {"tty bad baud", "tty = [\"/dev/ttyGS0:fast\"]\n",
       "test.toml: tty[0]: '/dev/ttyGS0:fast': baud rate must be a positive number after ':'"},
      {"serial buffer past the total", "[serial]\nbuffer_bytes = 4096\nbuffer_bytes_total = 1024\n",
       "test.toml: serial.buffer_bytes: 4096 is more than serial.buffer_bytes_total (1024): no session could open "
       "with it"},
  };
  for (const auto& c : cases) EXPECT_EQ(error_of(c.toml), c.error) << c.name;
}

TEST(Config, UnknownKeysAreErrorsNamingTheKey) {
  EXPECT_EQ(error_of("devise = \"x\"\n").rfind("test.toml: devise: unknown property", 0), 0u)
      << error_of("devise = \"x\"\n");
  const auto in_pin = error_of("[[pins]]\nname = \"a\"\npin = 1\ntype = \"adc_input\"\nsampel = 1\n");
  EXPECT_EQ(in_pin.rfind("test.toml: pins[0].sampel: unknown property", 0), 0u) << in_pin;
  const auto in_sim = error_of("[[pins]]\nname = \"a\"\npin = 1\ntype = \"adc_input\"\nsim = { wave = \"sine\" }\n");
  EXPECT_EQ(in_sim.rfind("test.toml: pins[0].sim.wave: unknown property", 0), 0u) << in_sim;
}

TEST(Config, TomlDatesAndTimesAreRefusedNamingTheKey) {
  // config.cpp: dates and times have no use in mcpud's config and must be reported as the wrong type,
  // also where the schema wants a string.
  struct DateCase {
    const char* toml;
    const char* key;
  };
  const std::vector<DateCase> cases = {
      {"device = 1979-05-27\n", "test.toml: device: "},
      {"listen = [1979-05-27T07:32:00Z]\n", "test.toml: listen[0]: "},
      {"[[pins]]\nname = \"a\"\npin = 1\ntype = \"adc_input\"\ndescription = 07:32:00\n",
       "test.toml: pins[0].description: "},
      {"[[pins]]\nname = \"a\"\npin = 1979-05-27\ntype = \"adc_input\"\n", "test.toml: pins[0].pin: "},
  };
  for (const auto& c : cases) {
    const auto error = error_of(c.toml);
    EXPECT_EQ(error.rfind(c.key, 0), 0u) << c.toml << " gave: " << (error.empty() ? "no error" : error);
  }
}

TEST(Config, TomlSyntaxErrorGivesLineAndColumn) {
  const auto error = error_of("device = \"x\"\nlisten = [\"a:1\"\nlog_level = \"info\"\n");
  EXPECT_EQ(error.rfind("test.toml:", 0), 0u) << error;
  // "test.toml:LINE:COLUMN: description"
  const auto first = error.find(':');
  const auto second = error.find(':', first + 1);
  const auto third = error.find(':', second + 1);
  ASSERT_NE(third, std::string::npos) << error;
  const auto line = error.substr(first + 1, second - first - 1);
  const auto column = error.substr(second + 1, third - second - 1);
  EXPECT_FALSE(line.empty());
  EXPECT_TRUE(std::all_of(line.begin(), line.end(), ::isdigit)) << error;
  EXPECT_FALSE(column.empty());
  EXPECT_TRUE(std::all_of(column.begin(), column.end(), ::isdigit)) << error;
  EXPECT_GE(std::stoi(line), 2) << error;
}

TEST(Config, TomlSyntaxErrorPointsAtTheOffendingLine) {
  const auto error = error_of("device = \"x\"\n\n\nbroken = = 1\n");
  EXPECT_EQ(error.rfind("test.toml:4:", 0), 0u) << error;
}

TEST(Config, DuplicatePinNamesAreRefused) {
  EXPECT_EQ(error_of(R"(
[[pins]]
name = "led"
pin = 1
type = "digital_output"
[[pins]]
name = "led"
pin = 2
type = "digital_output"
)"),
            "test.toml: pins[1].name: 'led' is used by another pin");
}

TEST(Config, DuplicatePinNumbersAreRefused) {
  EXPECT_EQ(error_of(R"(
[[pins]]
name = "a"
pin = 7
type = "digital_output"
[[pins]]
name = "b"
pin = 8
type = "adc_input"
[[pins]]
name = "c"
pin = 7
type = "adc_input"
)"),
            "test.toml: pins[2].pin: 7 is used by another pin");
}

TEST(Config, LoopbackFromAMissingPinIsRefused) {
  EXPECT_EQ(error_of(R"(
[[pins]]
name = "led"
pin = 2
type = "digital_output"
[[pins]]
name = "sense"
pin = 3
type = "digital_input"
sim = { mode = "loopback", from = "lde" }
)"),
            "test.toml: pins[1].sim.from: no digital_output named 'lde'");
}

TEST(Config, LoopbackFromANonOutputIsRefused) {
  EXPECT_EQ(error_of(R"(
[[pins]]
name = "other"
pin = 2
type = "digital_input"
[[pins]]
name = "sense"
pin = 3
type = "digital_input"
sim = { mode = "loopback", from = "other" }
)"),
            "test.toml: pins[1].sim.from: no digital_output named 'other'");
  EXPECT_EQ(error_of(R"(
[[pins]]
name = "fan"
pin = 2
type = "pwm_output"
[[pins]]
name = "sense"
pin = 3
type = "digital_input"
sim = { mode = "loopback", from = "fan" }
)"),
            "test.toml: pins[1].sim.from: no digital_output named 'fan'");
}

TEST(Config, LoopbackWithoutASourceIsRefused) {
  EXPECT_EQ(error_of("[[pins]]\nname = \"s\"\npin = 3\ntype = \"digital_input\"\nsim = { mode = \"loopback\" }\n"),
            "test.toml: pins[0].sim.from: a loopback input needs the name of a digital_output");
}

struct MisfitCase {
  const char* type;
  const char* line;  // a key = value that does not fit the type
  const char* key;
};

TEST(Config, KeysThatDoNotFitThePinTypeAreRefusedAsTable) {
  const std::vector<MisfitCase> cases = {
      {"adc_input", "safe_value = false", "safe_value"},
      {"digital_input", "safe_value = true", "safe_value"},
      {"pwm_output", "safe_value = true", "safe_value"},
      {"adc_input", "initial = true", "initial"},
      {"pwm_output", "initial = true", "initial"},
      {"digital_output", "safe_duty = 0", "safe_duty"},
      {"adc_input", "safe_duty = 0", "safe_duty"},
      {"digital_output", "pwm = { frequency_hz = 100 }", "pwm"},
      {"digital_input", "pwm = { frequency_hz = 100 }", "pwm"},
      {"digital_output", "sampling = { interval_ms = 10 }", "sampling"},
      {"pwm_output", "sampling = { interval_ms = 10 }", "sampling"},
      {"digital_output", "sim = { mode = \"constant\" }", "sim"},
      {"pwm_output", "sim = { waveform = \"sine\" }", "sim"},
  };
  for (const auto& c : cases) {
    const std::string toml =
        std::string("[[pins]]\nname = \"p\"\npin = 1\ntype = \"") + c.type + "\"\n" + c.line + "\n";
    const std::string article = c.type[0] == 'a' ? "an " : "a ";
    EXPECT_EQ(error_of(toml), std::string("test.toml: pins[0].") + c.key + ": not used by " + article + c.type + " pin")
        << c.type << " / " << c.line;
  }
}

TEST(Config, ThresholdsLowAboveHighAreRefused) {
  EXPECT_EQ(error_of("[[pins]]\nname = \"a\"\npin = 1\ntype = \"adc_input\"\n"
                     "sampling = { interval_ms = 5, thresholds = [900.0, 200.0] }\n"),
            "test.toml: pins[0].sampling.thresholds: low (first) must not exceed high (second)");
  EXPECT_EQ(error_of("[[pins]]\nname = \"a\"\npin = 1\ntype = \"adc_input\"\n"
                     "sampling = { interval_ms = 5, thresholds = [500.0, 500.0] }\n"),
            "");
}

TEST(Config, HysteresisWiderThanTheThresholdBandIsRefused) {
  const std::string pin = "[[pins]]\nname = \"a\"\npin = 1\ntype = \"adc_input\"\n";
  EXPECT_EQ(error_of(pin + "sampling = { interval_ms = 5, thresholds = [200.0, 300.0], hysteresis = 100.5 }\n"),
            "test.toml: pins[0].sampling.hysteresis: must not exceed high - low of the thresholds");
  EXPECT_EQ(error_of(pin + "sampling = { interval_ms = 5, thresholds = [200.0, 300.0], hysteresis = 100.0 }\n"), "");
}

TEST(Config, ErrorsNameThePinByItsIndex) {
  std::string toml;
  for (int i = 0; i < 5; ++i) {
    toml += "[[pins]]\nname = \"p" + std::to_string(i) + "\"\npin = " + std::to_string(i) + "\ntype = \"adc_input\"\n";
  }
  toml += "[[pins]]\nname = \"bad\"\npin = 99\ntype = \"adc_input\"\nsafe_value = true\n";
  EXPECT_EQ(error_of(toml), "test.toml: pins[5].safe_value: not used by an adc_input pin");
}

TEST(Config, LoadFileOfAMissingFileNamesThePath) {
  const auto config = load_file("/nonexistent/mcpud-test.toml");
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error(), "/nonexistent/mcpud-test.toml: cannot open the file: No such file or directory");
}

// --- parse_tty ------------------------------------------------------------------

struct TtyCase {
  const char* spec;
  bool ok;
  const char* path;
  std::uint32_t baud;
};

TEST(ParseTty, AcceptsPathAndOptionalBaudAsTable) {
  const std::vector<TtyCase> cases = {
      {"/dev/ttyGS0", true, "/dev/ttyGS0", 115200},
      {"/dev/ttyGS0:115200", true, "/dev/ttyGS0", 115200},
      {"/dev/ttyUSB1:9600", true, "/dev/ttyUSB1", 9600},
      {"/dev/ttyAMA0:4000000", true, "/dev/ttyAMA0", 4000000},
      {"/dev/pts/7:1", true, "/dev/pts/7", 1},
      {"/dev/ttyGS0:", false, "", 0},
      {"/dev/ttyGS0:0", false, "", 0},
      {"/dev/ttyGS0:-9600", false, "", 0},
      {"/dev/ttyGS0:96O0", false, "", 0},
      {"/dev/ttyGS0:9600 ", false, "", 0},
      {"/dev/ttyGS0:99999999999", false, "", 0},
      {"ttyGS0", false, "", 0},
      {"ttyGS0:9600", false, "", 0},
      {":9600", false, "", 0},
      {"", false, "", 0},
  };
  for (const auto& c : cases) {
    const auto tty = parse_tty(c.spec);
    ASSERT_EQ(tty.has_value(), c.ok) << "'" << c.spec << "': " << (tty ? "" : tty.error());
    if (c.ok) {
      EXPECT_EQ(tty->path, c.path) << c.spec;
      EXPECT_EQ(tty->baud, c.baud) << c.spec;
    } else {
      EXPECT_NE(tty.error().find(std::string("'") + c.spec + "'"), std::string::npos) << tty.error();
    }
  }
}

TEST(ParseTty, ExplainsWhatIsWrong) {
  EXPECT_EQ(parse_tty("/dev/ttyGS0:x").error(), "'/dev/ttyGS0:x': baud rate must be a positive number after ':'");
  EXPECT_EQ(parse_tty("ttyGS0").error(), "'ttyGS0': expected an absolute device path, e.g. /dev/ttyGS0:115200");
}

// --- the built-in board ------------------------------------------------------------

TEST(BuiltinConfig, ParsesAndHasPinsOfAllFiveTypes) {
  Config config;
  ASSERT_NO_THROW(config = builtin());
  std::set<hal::PinType> types;
  for (const auto& pin : config.board.pins) types.insert(pin.type);
  EXPECT_EQ(types,
            (std::set<hal::PinType>{hal::PinType::DigitalOutput, hal::PinType::DigitalInput, hal::PinType::PwmOutput,
                                    hal::PinType::AdcInput, hal::PinType::SensorInput}));
  EXPECT_EQ(config.board.kind, pins::BoardKind::Sim);
  EXPECT_FALSE(config.device.empty());
  EXPECT_FALSE(config.listen.empty());
  // The simulated board has no serial port of its own: clients may open none.
  EXPECT_FALSE(config.serial.allowed_ports.has_value());
  EXPECT_FALSE(config.serial.share_sessions);
}

TEST(BuiltinConfig, SamplesAtLeastOneInputAndNoOutput) {
  const auto config = builtin();
  int sampled_inputs = 0;
  for (const auto& pin : config.board.pins) {
    const bool input = pin.type == hal::PinType::DigitalInput || pin.type == hal::PinType::AdcInput ||
                       pin.type == hal::PinType::SensorInput;
    if (pin.sampling) {
      EXPECT_TRUE(input) << pin.name;
      ++sampled_inputs;
    }
  }
  EXPECT_GE(sampled_inputs, 1);
}

TEST(BuiltinConfig, ResolvedDocumentDescribesTheSamePins) {
  // --check-config prints `resolved`; it must describe the same pins.
  const auto config = builtin();
  ASSERT_TRUE(config.resolved.is_object());
  EXPECT_EQ(config.resolved.at("pins").size(), config.board.pins.size());
  for (std::size_t i = 0; i < config.board.pins.size(); ++i) {
    EXPECT_EQ(config.resolved["pins"][i].at("name"), config.board.pins[i].name);
    EXPECT_EQ(config.resolved["pins"][i].at("pin"), config.board.pins[i].pin);
  }
}

TEST(Config, ASimulatedBoardUsesItsBusesOnlyWhenItListsOneOrHasAThermometer) {
  EXPECT_TRUE(uses_simulated_buses(builtin()));
  const auto uses = [](const std::string& text) {
    auto config = parse(text, "test");
    EXPECT_TRUE(config) << config.error();
    return config && uses_simulated_buses(*config);
  };
  EXPECT_FALSE(uses("board = \"sim\"\n"));
  EXPECT_TRUE(uses("board = \"sim\"\n[[spi.devices]]\nbus = 0\nchip_select = 0\n"));
  EXPECT_TRUE(uses("board = \"sim\"\n[[i2c.buses]]\nbus = 1\n"));
  EXPECT_TRUE(
      uses("board = \"sim\"\n[[pins]]\nname = \"t\"\npin = 1\ntype = \"sensor_input\"\n"
           "onewire = { id = \"28-00000a1b2c3d\" }\n"));
  EXPECT_FALSE(uses("board = \"none\"\n[[i2c.buses]]\nbus = 1\n")) << "a real board's buses are the kernel's";
}

}  // namespace
}  // namespace mcpud::config
