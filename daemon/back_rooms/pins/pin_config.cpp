// SPDX-License-Identifier: MIT
// The board and [[pins]] sections of mcpud.toml: schema, parsing, cross-checks.
#include "mcpud/pins/pin_config.hpp"

#include <algorithm>
#include <array>
#include <set>

#include "hardware_config.hpp"
#include "mcpud/core/enum_names.hpp"
#include "mcpud/core/schema.hpp"

namespace mcpud::pins {
namespace {

using nlohmann::json;

constexpr EnumNames<BoardKind, 4> kBoardNames{{{BoardKind::Sim, "sim"},
                                               {BoardKind::RaspberryPi, "raspberrypi"},
                                               {BoardKind::Linux, "linux"},
                                               {BoardKind::None, "none"}}};

const char* const kPinsSchema = R"json({
  "type": "array",
  "default": [],
  "maxItems": 512,
  "items": {
    "type": "object",
    "additionalProperties": false,
    "required": ["name", "pin", "type"],
    "properties": {
      "name": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[A-Za-z_][A-Za-z0-9_.-]*$"},
      "pin": {"type": "integer", "minimum": 0, "maximum": 65535},
      "type": {"type": "string", "enum": ["digital_output", "digital_input", "pwm_output", "adc_input", "sensor_input"]},
      "description": {"type": "string", "default": ""},
      "initial": {"type": "boolean"},
      "safe_value": {"type": "boolean"},
      "safe_duty": {"type": "integer", "minimum": 0, "maximum": 255},
      "on_release": {"type": "string", "enum": ["safe", "hold"]},
      "lease_ms": {"type": "integer", "minimum": 1, "maximum": 86400000},
      "max_on_ms": {"type": "integer", "minimum": 1, "maximum": 86400000},
      "min_off_ms": {"type": "integer", "minimum": 1, "maximum": 86400000},
      "max_writes_per_s": {"type": "integer", "minimum": 1, "maximum": 1000},
      "min_duty": {"type": "integer", "minimum": 0, "maximum": 255},
      "max_duty": {"type": "integer", "minimum": 0, "maximum": 255},
      "exclusive_with": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 16},
      "requires": {"type": "string", "minLength": 1},
      "pwm": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "frequency_hz": {"type": "integer", "minimum": 1, "maximum": 100000000, "default": 1000},
          "chip": {"type": "string", "minLength": 1},
          "channel": {"type": "integer", "minimum": 0, "maximum": 1023},
          "polarity": {"type": "string", "enum": ["normal", "inversed"]}
        }
      },
      "chip": {"type": "string", "minLength": 1},
      "line": {"type": ["integer", "string"], "minimum": 0, "maximum": 65535, "minLength": 1},
      "active_low": {"type": "boolean"},
      "drive": {"type": "string", "enum": ["push-pull", "open-drain", "open-source"]},
      "bias": {"type": "string", "enum": ["as-is", "disabled", "pull-up", "pull-down"]},
      "events": {"type": "string", "enum": ["none", "rising", "falling", "both"]},
      "debounce_ms": {"type": "integer", "minimum": 0, "maximum": 1000},
      "iio": {
        "type": "object",
        "additionalProperties": false,
        "required": ["device", "channel"],
        "properties": {
          "device": {"type": "string", "minLength": 1},
          "channel": {"type": "string", "minLength": 1},
          "uri": {"type": "string", "minLength": 1}
        }
      },
      "hwmon": {
        "type": "object",
        "additionalProperties": false,
        "required": ["device", "input"],
        "properties": {
          "device": {"type": "string", "minLength": 1},
          "input": {"type": "string", "pattern": "^[a-z]+[0-9]+$"}
        }
      },
      "thermal": {
        "type": "object",
        "additionalProperties": false,
        "required": ["zone"],
        "properties": {"zone": {"type": "string", "minLength": 1}}
      },
      "onewire": {
        "type": "object",
        "additionalProperties": false,
        "required": ["id"],
        "properties": {"id": {"type": "string", "pattern": "^[0-9a-fA-F]{2}-[0-9a-fA-F]{12}$"}}
      },
      "sampling": {
        "type": "object",
        "additionalProperties": false,
        "required": ["interval_ms"],
        "properties": {
          "interval_ms": {"type": "integer", "minimum": 1, "maximum": 86400000},
          "buffer_size": {"type": "integer", "minimum": 0, "maximum": 100000, "default": 0},
          "summary": {"type": "boolean", "default": true},
          "thresholds": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
          "hysteresis": {"type": "number", "minimum": 0, "default": 0},
          "edges": {"type": "string", "enum": ["none", "rising", "falling", "both"], "default": "none"},
          "event_capacity": {"type": "integer", "minimum": 1, "maximum": 100000, "default": 64}
        }
      },
      "sim": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "mode": {"type": "string", "enum": ["constant", "square", "loopback"]},
          "level": {"type": "boolean"},
          "from": {"type": "string"},
          "waveform": {"type": "string", "enum": ["constant", "sine", "triangle", "noise"]},
          "min": {"type": "number"},
          "max": {"type": "number"},
          "period_ms": {"type": "integer", "minimum": 2, "maximum": 86400000},
          "seed": {"type": "integer", "minimum": 0},
          "scale_mv": {"type": "number", "exclusiveMinimum": 0},
          "offset": {"type": "number"},
          "quantity": {"type": "string", "minLength": 1}
        }
      }
    }
  }
})json";

constexpr EnumNames<EdgeMode, 4> kEdgeNames{
    {{EdgeMode::None, "none"}, {EdgeMode::Rising, "rising"}, {EdgeMode::Falling, "falling"}, {EdgeMode::Both, "both"}}};

SamplingOptions parse_sampling(const json& j) {
  SamplingOptions s;
  s.interval_ms = j.at("interval_ms").get<std::uint32_t>();
  s.buffer_size = j.at("buffer_size").get<std::size_t>();
  s.summary = j.at("summary").get<bool>();
  s.edges = value_named(kEdgeNames, j.at("edges").get<std::string>()).value_or(EdgeMode::None);
  s.event_capacity = j.at("event_capacity").get<std::size_t>();
  if (j.contains("thresholds")) {
    s.thresholds = Thresholds{j["thresholds"][0].get<double>(), j["thresholds"][1].get<double>(),
                              j.at("hysteresis").get<double>()};
  }
  return s;
}

constexpr EnumNames<hal::SimInputSpec::Mode, 3> kSimModes{{{hal::SimInputSpec::Mode::Constant, "constant"},
                                                           {hal::SimInputSpec::Mode::Square, "square"},
                                                           {hal::SimInputSpec::Mode::Loopback, "loopback"}}};
constexpr EnumNames<hal::SimAnalogSpec::Waveform, 4> kWaveforms{{{hal::SimAnalogSpec::Waveform::Constant, "constant"},
                                                                 {hal::SimAnalogSpec::Waveform::Sine, "sine"},
                                                                 {hal::SimAnalogSpec::Waveform::Triangle, "triangle"},
                                                                 {hal::SimAnalogSpec::Waveform::Noise, "noise"}}};

// A key not given keeps the simulated board's own default (hal/sim_board.hpp).
void parse_sim(const json& sim, PinConfig& pin) {
  if (sim.contains("mode")) pin.sim_input.mode = *value_named(kSimModes, sim["mode"].get<std::string>());
  pin.sim_input.level = sim.value("level", pin.sim_input.level);
  pin.sim_input.loopback_from = sim.value("from", pin.sim_input.loopback_from);
  if (sim.contains("waveform")) pin.sim_analog.waveform = *value_named(kWaveforms, sim["waveform"].get<std::string>());
  pin.sim_analog.min = sim.value("min", pin.sim_analog.min);
  pin.sim_analog.max = sim.value("max", pin.sim_analog.max);
  pin.sim_analog.seed = sim.value("seed", pin.sim_analog.seed);
  pin.sim_analog.scale_mv = sim.value("scale_mv", pin.sim_analog.scale_mv);
  pin.sim_analog.offset = sim.value("offset", pin.sim_analog.offset);
  pin.sim_quantity = sim.value("quantity", "");
  if (sim.contains("period_ms")) {
    pin.sim_input.period_ms = sim["period_ms"].get<std::uint32_t>();
    pin.sim_analog.period_ms = pin.sim_input.period_ms;
  }
}

// [pins.pwm] as given, or the schema's defaults of it for a PWM pin without one.
const json& pwm_table(const json& pin) {
  static const json defaults = schema::defaults_of(json::parse(kPinsSchema)["items"]["properties"]["pwm"]);
  return pin.contains("pwm") ? pin["pwm"] : defaults;
}

std::string article_for(std::string_view noun) {
  const bool vowel = !noun.empty() && std::string_view("aeiou").find(noun.front()) != std::string_view::npos;
  return std::string(vowel ? "an " : "a ") + std::string(noun);
}

// Keys that only make sense for some pin types; the schema cannot say so.
std::expected<void, std::string> check_keys_fit_type(const json& j, const std::string& where, hal::PinType type) {
  struct Rule {
    const char* key;
    bool allowed;
  };
  const bool output = type == hal::PinType::DigitalOutput;
  const bool input =
      type == hal::PinType::DigitalInput || type == hal::PinType::AdcInput || type == hal::PinType::SensorInput;
  const bool pwm = type == hal::PinType::PwmOutput;
  const bool driven = output || pwm;
  for (const Rule rule :
       {Rule{"initial", output}, Rule{"safe_value", output}, Rule{"safe_duty", pwm}, Rule{"pwm", pwm},
        Rule{"sampling", input}, Rule{"sim", input}, Rule{"on_release", driven}, Rule{"lease_ms", driven},
        Rule{"max_on_ms", driven}, Rule{"min_off_ms", driven}, Rule{"max_writes_per_s", driven}, Rule{"min_duty", pwm},
        Rule{"max_duty", pwm}, Rule{"exclusive_with", driven}, Rule{"requires", driven}}) {
    if (j.contains(rule.key) && !rule.allowed) {
      return std::unexpected(where + "." + rule.key + ": not used by " + article_for(hal::pin_type_name(type)) +
                             " pin");
    }
  }
  return {};
}

// A simulated sensor says what it measures; the quantity gives its unit.
std::expected<void, std::string> check_sim_quantity(const std::string& where, BoardKind board, const PinConfig& pin) {
  const bool sensor = pin.type == hal::PinType::SensorInput;
  if (!sensor && !pin.sim_quantity.empty())
    return std::unexpected(where + ".sim.quantity: only used by sensor_input pins");
  if (!sensor || board != BoardKind::Sim || pin.sensor.kind == SensorSource::Kind::OneWire) return {};
  if (pin.sim_quantity.empty())
    return std::unexpected(where + ".sim.quantity: a simulated sensor_input needs one of: " + hal::known_quantities());
  if (!hal::quantity_named(pin.sim_quantity)) {
    return std::unexpected(where + ".sim.quantity: unknown quantity '" + pin.sim_quantity +
                           "'; known: " + hal::known_quantities());
  }
  return {};
}

constexpr EnumNames<OnRelease, 2> kOnReleaseNames{{{OnRelease::Safe, "safe"}, {OnRelease::Hold, "hold"}}};

bool has_safe_value(const PinConfig& pin) { return pin.safe_value.has_value() || pin.safe_duty.has_value(); }

// The limit keys of one output. An output with a safe value returns to it when
// its driver goes away unless told to hold: the careful default (docs/safety.md).
std::expected<OutputLimits, std::string> parse_limits(const json& j, const std::string& where, const PinConfig& pin) {
  OutputLimits l;
  const bool safe = has_safe_value(pin);
  l.on_release = safe ? OnRelease::Safe : OnRelease::Hold;
  if (j.contains("on_release")) l.on_release = *value_named(kOnReleaseNames, j["on_release"].get<std::string>());
  l.lease_ms = j.value("lease_ms", 0U);
  l.max_on_ms = j.value("max_on_ms", 0U);
  l.min_off_ms = j.value("min_off_ms", 0U);
  l.max_writes_per_s = j.value("max_writes_per_s", 0U);
  if (j.contains("min_duty")) l.min_duty = j["min_duty"].get<int>();
  if (j.contains("max_duty")) l.max_duty = j["max_duty"].get<int>();
  if (j.contains("exclusive_with")) l.exclusive_with = j["exclusive_with"].get<std::vector<std::string>>();
  l.required = j.value("requires", "");
  if (l.min_duty && l.max_duty && *l.min_duty > *l.max_duty)
    return std::unexpected(where + ".min_duty: " + std::to_string(*l.min_duty) + " is above max_duty " +
                           std::to_string(*l.max_duty));
  // These return the output to its safe value, or compare with it: without one there is nothing to return to.
  const std::string value_key = pin.type == hal::PinType::PwmOutput ? "safe_duty" : "safe_value";
  for (const char* key : {"lease_ms", "max_on_ms", "min_off_ms", "exclusive_with", "requires"}) {
    if (j.contains(key) && !safe)
      return std::unexpected(where + "." + key + ": needs " + value_key + ", the value the output returns to");
  }
  if (j.contains("on_release") && l.on_release == OnRelease::Safe && !safe)
    return std::unexpected(where + ".on_release: \"safe\" needs " + value_key + ", the value the output returns to");
  return l;
}

std::expected<PinConfig, std::string> parse_pin(const json& j, const std::string& where, BoardKind board) {
  PinConfig pin;
  pin.name = j.at("name").get<std::string>();
  pin.pin = j.at("pin").get<int>();
  hal::parse_pin_type(j.at("type").get<std::string>(), pin.type);
  if (auto fits = check_keys_fit_type(j, where, pin.type); !fits) return std::unexpected(fits.error());
  pin.description = j.at("description").get<std::string>();
  pin.initial = j.value("initial", false);
  if (j.contains("safe_value")) pin.safe_value = j["safe_value"].get<bool>();
  if (j.contains("safe_duty")) pin.safe_duty = j["safe_duty"].get<double>();
  pin.frequency_hz = pwm_table(j).at("frequency_hz").get<std::uint32_t>();
  if (pin.type == hal::PinType::DigitalOutput || pin.type == hal::PinType::PwmOutput) {
    auto limits = parse_limits(j, where, pin);
    if (!limits) return std::unexpected(limits.error());
    pin.limits = std::move(*limits);
  }
  if (j.contains("sampling")) {
    pin.sampling = parse_sampling(j["sampling"]);
    if (pin.sampling->thresholds && pin.sampling->thresholds->low > pin.sampling->thresholds->high) {
      return std::unexpected(where + ".sampling.thresholds: low (first) must not exceed high (second)");
    }
    // A wider hysteresis than the band would make in_range unreachable.
    if (const auto& t = pin.sampling->thresholds; t && t->hysteresis > t->high - t->low) {
      return std::unexpected(where + ".sampling.hysteresis: must not exceed high - low of the thresholds");
    }
  }
  if (j.contains("sim")) parse_sim(j["sim"], pin);
  if (pin.type == hal::PinType::DigitalInput && pin.sim_input.mode == hal::SimInputSpec::Mode::Loopback &&
      pin.sim_input.loopback_from.empty()) {
    return std::unexpected(where + ".sim.from: a loopback input needs the name of a digital_output");
  }
  if (auto hardware = parse_hardware_keys(j, where, board, pin); !hardware) return std::unexpected(hardware.error());
  if (auto sim = check_sim_quantity(where, board, pin); !sim) return std::unexpected(sim.error());
  return pin;
}

// The output that `name` (given at `where`) names, which must be another one with a safe value.
std::expected<const PinConfig*, std::string> interlocked(const std::vector<PinConfig>& pins, const PinConfig& self,
                                                         const std::string& name, const std::string& where) {
  if (name == self.name) return std::unexpected(where + ": '" + name + "' is this output itself");
  const auto other = std::find_if(pins.begin(), pins.end(), [&](const auto& p) { return p.name == name; });
  if (other == pins.end() || (other->type != hal::PinType::DigitalOutput && other->type != hal::PinType::PwmOutput)) {
    return std::unexpected(where + ": no digital_output or pwm_output named '" + name + "'");
  }
  if (!has_safe_value(*other)) {
    return std::unexpected(where + ": '" + name + "' has no safe_value or safe_duty to compare with");
  }
  return &*other;
}

// exclusive_with and requires name other outputs with safe values, and requires has no cycle.
std::expected<void, std::string> check_interlocks(const std::vector<PinConfig>& pins) {
  for (std::size_t i = 0; i < pins.size(); ++i) {
    const auto& pin = pins[i];
    const auto where = "pins[" + std::to_string(i) + "]";
    for (std::size_t k = 0; k < pin.limits.exclusive_with.size(); ++k) {
      const auto at = where + ".exclusive_with[" + std::to_string(k) + "]";
      if (auto other = interlocked(pins, pin, pin.limits.exclusive_with[k], at); !other)
        return std::unexpected(other.error());
    }
    if (pin.limits.required.empty()) continue;
    if (auto other = interlocked(pins, pin, pin.limits.required, where + ".requires"); !other)
      return std::unexpected(other.error());
    // Follow the chain: it must end before it comes back to this pin.
    std::string chain = pin.name;
    const PinConfig* step = &pin;
    for (std::size_t hops = 0; !step->limits.required.empty(); ++hops) {
      const auto next =
          std::find_if(pins.begin(), pins.end(), [&](const auto& p) { return p.name == step->limits.required; });
      if (next == pins.end()) break;  // reported when that pin is checked
      chain += " -> " + next->name;
      if (next->name == pin.name || hops > pins.size()) return std::unexpected(where + ".requires: a cycle: " + chain);
      step = &*next;
    }
  }
  return {};
}

// Names and numbers are unique; loopback sources are digital outputs.
std::expected<void, std::string> check_pins(const std::vector<PinConfig>& pins) {
  std::set<std::string> names;
  std::set<int> numbers;
  for (std::size_t i = 0; i < pins.size(); ++i) {
    const auto where = "pins[" + std::to_string(i) + "]";
    if (!names.insert(pins[i].name).second)
      return std::unexpected(where + ".name: '" + pins[i].name + "' is used by another pin");
    if (!numbers.insert(pins[i].pin).second) {
      return std::unexpected(where + ".pin: " + std::to_string(pins[i].pin) + " is used by another pin");
    }
  }
  if (auto interlocks = check_interlocks(pins); !interlocks) return interlocks;
  for (std::size_t i = 0; i < pins.size(); ++i) {
    const auto& pin = pins[i];
    if (pin.type != hal::PinType::DigitalInput || pin.sim_input.mode != hal::SimInputSpec::Mode::Loopback) continue;
    const auto source =
        std::find_if(pins.begin(), pins.end(), [&](const auto& p) { return p.name == pin.sim_input.loopback_from; });
    if (source == pins.end() || source->type != hal::PinType::DigitalOutput) {
      return std::unexpected("pins[" + std::to_string(i) + "].sim.from: no digital_output named '" +
                             pin.sim_input.loopback_from + "'");
    }
  }
  return {};
}

}  // namespace

std::string_view board_kind_name(BoardKind kind) { return name_of(kBoardNames, kind); }

std::optional<BoardKind> parse_board_kind(std::string_view name) { return value_named(kBoardNames, name); }

void add_board_schema(json& schema) {
  auto& properties = schema["properties"];
  json kinds = json::array();
  for (const auto& [kind, name] : kBoardNames) kinds.push_back(name);
  properties["board"] = {{"type", "string"}, {"enum", kinds}, {"default", "sim"}};
  properties["pwm_sysfs_root"] = {{"type", "string"}, {"minLength", 1}, {"default", "/sys/class/pwm"}};
  properties["sysfs_root"] = {{"type", "string"}, {"minLength", 1}, {"default", "/sys"}};
  properties["procfs_root"] = {{"type", "string"}, {"minLength", 1}, {"default", "/proc"}};
  properties["pins"] = json::parse(kPinsSchema);
}

std::expected<BoardConfig, std::string> parse_board_config(const json& document) {
  BoardConfig board;
  board.kind = *parse_board_kind(document.at("board").get<std::string>());  // the schema's enum
  board.pwm_sysfs_root = document.at("pwm_sysfs_root").get<std::string>();
  board.sysfs_root = document.at("sysfs_root").get<std::string>();
  board.procfs_root = document.at("procfs_root").get<std::string>();
  const auto& pins = document.at("pins");
  if (board.kind == BoardKind::None && !pins.empty()) {
    return std::unexpected("pins: board \"none\" has no pins; remove them or choose a board");
  }
  for (std::size_t i = 0; i < pins.size(); ++i) {
    auto pin = parse_pin(pins[i], "pins[" + std::to_string(i) + "]", board.kind);
    if (!pin) return std::unexpected(pin.error());
    board.pins.push_back(std::move(*pin));
  }
  if (auto checked = check_pins(board.pins); !checked) return std::unexpected(checked.error());
  return board;
}

}  // namespace mcpud::pins
