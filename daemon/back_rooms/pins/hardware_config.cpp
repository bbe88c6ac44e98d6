// SPDX-License-Identifier: MIT
// Hardware pin keys: parsing and the cross-checks a schema cannot express.
#include "hardware_config.hpp"

#include <algorithm>
#include <initializer_list>

#include "mcpud/core/enum_names.hpp"

#include "board_kinds.hpp"

namespace mcpud::pins {
namespace {

using hal::PinType;
using nlohmann::json;

std::string types_text(std::initializer_list<PinType> types) {
  std::string text;
  for (const auto t : types) text += (text.empty() ? "" : " or ") + std::string(hal::pin_type_name(t));
  return text;
}

// Each hardware key, and the pin types that use it.
std::expected<void, std::string> check_key_types(const json& j, const std::string& where, PinType type) {
  struct Rule {
    const char* key;
    std::initializer_list<PinType> types;
  };
  static const Rule rules[] = {
      {"chip", {PinType::DigitalOutput, PinType::DigitalInput}},
      {"line", {PinType::DigitalOutput, PinType::DigitalInput}},
      {"active_low", {PinType::DigitalOutput, PinType::DigitalInput}},
      {"drive", {PinType::DigitalOutput}},
      {"bias", {PinType::DigitalInput}},
      {"events", {PinType::DigitalInput}},
      {"debounce_ms", {PinType::DigitalInput}},
      {"iio", {PinType::AdcInput, PinType::SensorInput}},
      {"hwmon", {PinType::SensorInput}},
      {"thermal", {PinType::SensorInput}},
      {"onewire", {PinType::SensorInput}},
  };
  for (const auto& rule : rules) {
    if (!j.contains(rule.key)) continue;
    if (std::find(rule.types.begin(), rule.types.end(), type) == rule.types.end()) {
      return std::unexpected(where + "." + rule.key + ": only used by " + types_text(rule.types) + " pins, not " +
                             std::string(hal::pin_type_name(type)));
    }
  }
  return {};
}

// Keys that mean something only on the simulated board, or only on a real
// one. `onewire` is both: the simulated board has a 1-Wire bus of its own.
std::expected<void, std::string> check_key_board(const json& j, const std::string& where, BoardKind board) {
  const bool sim = board == BoardKind::Sim;
  if (!sim && j.contains("sim"))
    return std::unexpected(where + ".sim: only used by board \"sim\", not \"" + std::string(board_kind_name(board)) +
                           "\"");
  if (!sim) return {};
  if (j.contains("onewire") && j.contains("sim")) {
    return std::unexpected(where + ".sim: a 1-Wire thermometer (onewire = { id }) reads the simulated board's " +
                           "1-Wire bus; remove sim");
  }
  for (const char* key :
       {"chip", "line", "active_low", "drive", "bias", "events", "debounce_ms", "iio", "hwmon", "thermal"}) {
    if (j.contains(key))
      return std::unexpected(where + "." + key + ": not used by board \"sim\" (use \"raspberrypi\" or \"linux\")");
  }
  if (j.contains("pwm") && j["pwm"].contains("chip")) {
    return std::unexpected(where + ".pwm.chip: not used by board \"sim\" (use \"raspberrypi\" or \"linux\")");
  }
  return {};
}

constexpr EnumNames<hal::Drive, 3> kDriveNames{{{hal::Drive::PushPull, "push-pull"},
                                                {hal::Drive::OpenDrain, "open-drain"},
                                                {hal::Drive::OpenSource, "open-source"}}};
constexpr EnumNames<hal::Bias, 4> kBiasNames{{{hal::Bias::AsIs, "as-is"},
                                              {hal::Bias::Disabled, "disabled"},
                                              {hal::Bias::PullUp, "pull-up"},
                                              {hal::Bias::PullDown, "pull-down"}}};
constexpr EnumNames<hal::Edges, 4> kLineEdgeNames{{{hal::Edges::None, "none"},
                                                   {hal::Edges::Rising, "rising"},
                                                   {hal::Edges::Falling, "falling"},
                                                   {hal::Edges::Both, "both"}}};

// The value `key` names, or `fallback` when the key is absent (the schema's
// enum already refused any other name).
template <class Enum, std::size_t N>
Enum enum_value(const json& j, const char* key, const EnumNames<Enum, N>& names, Enum fallback) {
  return j.contains(key) ? value_named(names, j[key].get<std::string>()).value_or(fallback) : fallback;
}

void parse_line(const json& j, PinConfig& pin) {
  pin.line.chip = j.value("chip", "");
  if (!j.contains("line")) return;
  if (j["line"].is_string())
    pin.line.line_name = j["line"].get<std::string>();
  else
    pin.line.offset = j["line"].get<unsigned>();
}

void parse_gpio(const json& j, PinConfig& pin) {
  const bool active_low = j.value("active_low", false);
  pin.gpio_output = {active_low, enum_value(j, "drive", kDriveNames, hal::Drive::PushPull), pin.initial};
  pin.gpio_input = {active_low, enum_value(j, "bias", kBiasNames, hal::Bias::AsIs),
                    enum_value(j, "events", kLineEdgeNames, hal::Edges::None), j.value("debounce_ms", 0u) * 1000u};
}

// Line events feed the pin's sampler (edges only, no timer, unless sampling is configured).
std::expected<void, std::string> attach_events(const std::string& where, PinConfig& pin) {
  const auto edges = pin.gpio_input.edges;
  if (edges == hal::Edges::None) return {};
  if (pin.sampling && pin.sampling->edges != EdgeMode::None) {
    return std::unexpected(where +
                           ".sampling.edges: the line reports its edges itself (events = ...); remove one of the two");
  }
  if (!pin.sampling) pin.sampling = SamplingOptions{.interval_ms = 0, .buffer_size = 0, .summary = false};
  pin.sampling->edges = edges == hal::Edges::Rising    ? EdgeMode::Rising
                        : edges == hal::Edges::Falling ? EdgeMode::Falling
                                                       : EdgeMode::Both;
  pin.sampling->hardware_edges = true;
  return {};
}

SensorSource onewire_source(const json& j) {
  return {SensorSource::Kind::OneWire, j["onewire"].at("id").get<std::string>(), ""};
}

// A sensor_input reads sysfs itself: IIO through libiio (and so a remote iiod)
// stays adc_input's. One source per pin.
std::expected<void, std::string> parse_sensor_source(const json& j, const std::string& where, PinConfig& pin) {
  if (pin.type != PinType::SensorInput) return {};
  std::string given;
  for (const char* key : {"iio", "hwmon", "thermal", "onewire"}) {
    if (!j.contains(key)) continue;
    if (!given.empty())
      return std::unexpected(where + "." + key + ": a sensor_input reads one source; it already has " + given);
    given = key;
  }
  if (j.contains("iio")) {
    if (j["iio"].contains("uri"))
      return std::unexpected(where + ".iio.uri: a sensor_input reads the local sysfs; a remote IIO context (uri) " +
                             "is read by adc_input pins");
    pin.sensor = {SensorSource::Kind::Iio, pin.iio.device, pin.iio.channel};
  } else if (j.contains("hwmon")) {
    const auto& hwmon = j["hwmon"];
    pin.sensor = {SensorSource::Kind::Hwmon, hwmon.at("device").get<std::string>(),
                  hwmon.at("input").get<std::string>()};
  } else if (j.contains("thermal")) {
    pin.sensor = {SensorSource::Kind::Thermal, j["thermal"].at("zone").get<std::string>(), ""};
  } else if (j.contains("onewire")) {
    pin.sensor = onewire_source(j);
  }
  return {};
}

}  // namespace

std::expected<void, std::string> parse_hardware_keys(const json& j, const std::string& where, BoardKind board,
                                                     PinConfig& pin) {
  if (auto ok = check_key_board(j, where, board); !ok) return ok;
  if (auto ok = check_key_types(j, where, pin.type); !ok) return ok;
  if (board == BoardKind::Sim) {
    if (j.contains("onewire")) pin.sensor = onewire_source(j);
    return {};
  }
  parse_line(j, pin);
  parse_gpio(j, pin);
  if (j.contains("iio"))
    pin.iio = {j["iio"].value("uri", ""), j["iio"].at("device").get<std::string>(),
               j["iio"].at("channel").get<std::string>()};
  if (auto ok = parse_sensor_source(j, where, pin); !ok) return ok;
  if (j.contains("pwm")) {
    pin.pwm_chip = j["pwm"].value("chip", "");
    pin.pwm_channel = j["pwm"].value("channel", 0u);
    pin.pwm_inverted = j["pwm"].value("polarity", "normal") == "inversed";
  }
  if (auto ok = check_pin_for_board(board, where, pin); !ok) return ok;
  return attach_events(where, pin);
}

}  // namespace mcpud::pins
