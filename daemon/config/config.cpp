// SPDX-License-Identifier: MIT
// TOML to JSON, schema validation, and the checks a schema cannot express.
#include "config/config.hpp"

#include <charconv>
#include <fstream>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "config/config_schema.hpp"
#include "config/hardware_config.hpp"
#include "mcpud/core/schema.hpp"

namespace mcpud::config {

extern const char* const kBuiltinConfig;

namespace {

using nlohmann::json;

// TOML to JSON so one schema check covers the whole file. Dates and times have
// no use in mcpud's config, so they are refused with the key that holds them.
std::expected<json, std::string> to_json(const toml::node& node, const std::string& path) {
  const auto child_path = [&](const std::string& key) { return path.empty() ? key : path + "." + key; };
  if (const auto* table = node.as_table()) {
    json out = json::object();
    for (const auto& [key, value] : *table) {
      const std::string name(key.str());
      auto converted = to_json(value, child_path(name));
      if (!converted) return converted;
      out[name] = std::move(*converted);
    }
    return out;
  }
  if (const auto* array = node.as_array()) {
    json out = json::array();
    for (std::size_t i = 0; i < array->size(); ++i) {
      auto converted = to_json(*array->get(i), path + "[" + std::to_string(i) + "]");
      if (!converted) return converted;
      out.push_back(std::move(*converted));
    }
    return out;
  }
  if (const auto* v = node.as_string()) return json(v->get());
  if (const auto* v = node.as_integer()) return json(v->get());
  if (const auto* v = node.as_floating_point()) return json(v->get());
  if (const auto* v = node.as_boolean()) return json(v->get());
  return std::unexpected(path + ": dates and times are not accepted here");
}

EdgeMode parse_edges(const std::string& name) {
  if (name == "rising") return EdgeMode::Rising;
  if (name == "falling") return EdgeMode::Falling;
  if (name == "both") return EdgeMode::Both;
  return EdgeMode::None;
}

SamplingOptions parse_sampling(const json& j) {
  SamplingOptions s;
  s.interval_ms = j.at("interval_ms").get<std::uint32_t>();
  s.buffer_size = j.at("buffer_size").get<std::size_t>();
  s.summary = j.at("summary").get<bool>();
  s.edges = parse_edges(j.at("edges").get<std::string>());
  s.event_capacity = j.at("event_capacity").get<std::size_t>();
  if (j.contains("thresholds")) {
    s.thresholds = Thresholds{j["thresholds"][0].get<double>(), j["thresholds"][1].get<double>(),
                              j.at("hysteresis").get<double>()};
  }
  return s;
}

void parse_sim(const json& sim, PinConfig& pin) {
  using Mode = hal::SimInputSpec::Mode;
  using Wave = hal::SimAnalogSpec::Waveform;
  const std::string mode = sim.value("mode", "constant");
  pin.sim_input.mode = mode == "square" ? Mode::Square : mode == "loopback" ? Mode::Loopback : Mode::Constant;
  pin.sim_input.level = sim.value("level", false);
  pin.sim_input.loopback_from = sim.value("from", "");
  const std::string wave = sim.value("waveform", "sine");
  pin.sim_analog.waveform = wave == "constant" ? Wave::Constant
                            : wave == "triangle" ? Wave::Triangle
                            : wave == "noise"    ? Wave::Noise
                                                 : Wave::Sine;
  pin.sim_analog.min = sim.value("min", pin.sim_analog.min);
  pin.sim_analog.max = sim.value("max", pin.sim_analog.max);
  pin.sim_analog.seed = sim.value("seed", pin.sim_analog.seed);
  pin.sim_analog.scale_mv = sim.value("scale_mv", pin.sim_analog.scale_mv);
  pin.sim_analog.offset = sim.value("offset", pin.sim_analog.offset);
  const std::uint32_t period = sim.value("period_ms", 0u);
  if (period != 0) {
    pin.sim_input.period_ms = period;
    pin.sim_analog.period_ms = period;
  }
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
  const bool input = type == hal::PinType::DigitalInput || type == hal::PinType::AdcInput;
  const bool pwm = type == hal::PinType::PwmOutput;
  for (const Rule rule : {Rule{"initial", output}, Rule{"safe_value", output}, Rule{"safe_duty", pwm},
                          Rule{"pwm", pwm}, Rule{"sampling", input}, Rule{"sim", input}}) {
    if (j.contains(rule.key) && !rule.allowed) {
      return std::unexpected(where + "." + rule.key + ": not used by " + article_for(hal::pin_type_name(type)) + " pin");
    }
  }
  return {};
}

std::expected<PinConfig, std::string> parse_pin(const json& j, const std::string& where, const std::string& board) {
  PinConfig pin;
  pin.name = j.at("name").get<std::string>();
  pin.pin = j.at("pin").get<int>();
  hal::parse_pin_type(j.at("type").get<std::string>(), pin.type);
  if (auto fits = check_keys_fit_type(j, where, pin.type); !fits) return std::unexpected(fits.error());
  pin.description = j.at("description").get<std::string>();
  pin.initial = j.value("initial", false);
  if (j.contains("safe_value")) pin.safe_value = j["safe_value"].get<bool>();
  if (j.contains("safe_duty")) pin.safe_duty = j["safe_duty"].get<double>();
  if (j.contains("pwm")) pin.frequency_hz = j["pwm"].at("frequency_hz").get<std::uint32_t>();
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
  return pin;
}

// Names and numbers are unique; loopback sources are digital outputs.
std::expected<void, std::string> check_pins(const std::vector<PinConfig>& pins) {
  std::set<std::string> names;
  std::set<int> numbers;
  for (std::size_t i = 0; i < pins.size(); ++i) {
    const auto where = "pins[" + std::to_string(i) + "]";
    if (!names.insert(pins[i].name).second) return std::unexpected(where + ".name: '" + pins[i].name + "' is used by another pin");
    if (!numbers.insert(pins[i].pin).second) {
      return std::unexpected(where + ".pin: " + std::to_string(pins[i].pin) + " is used by another pin");
    }
  }
  for (std::size_t i = 0; i < pins.size(); ++i) {
    const auto& pin = pins[i];
    if (pin.type != hal::PinType::DigitalInput || pin.sim_input.mode != hal::SimInputSpec::Mode::Loopback) continue;
    const auto source = std::find_if(pins.begin(), pins.end(), [&](const auto& p) { return p.name == pin.sim_input.loopback_from; });
    if (source == pins.end() || source->type != hal::PinType::DigitalOutput) {
      return std::unexpected("pins[" + std::to_string(i) + "].sim.from: no digital_output named '" + pin.sim_input.loopback_from + "'");
    }
  }
  return {};
}

std::expected<BridgeConfig, std::string> parse_bridge(const json& j, const std::string& where) {
  BridgeConfig bridge;
  bridge.id = j.at("id").get<std::string>();
  if (bridge.id.find("__") != std::string::npos) return std::unexpected(where + ".id: must not contain \"__\" (it separates id and tool)");
  bridge.port = j.value("port", "");
  bridge.tcp = j.value("tcp", "");
  if (bridge.port.empty() == bridge.tcp.empty()) return std::unexpected(where + ": give exactly one of port (a serial device) or tcp (host:port)");
  if (!bridge.port.empty() && bridge.port.front() != '/') return std::unexpected(where + ".port: expected an absolute device path, e.g. /dev/ttyACM0");
  const auto colon = bridge.tcp.rfind(':');
  if (!bridge.tcp.empty() && (colon == std::string::npos || colon == 0 || colon + 1 == bridge.tcp.size())) {
    return std::unexpected(where + ".tcp: expected host:port, e.g. 192.168.1.40:3000");
  }
  bridge.baud = j.at("baud").get<std::uint32_t>();
  bridge.reset_wait_ms = j.value("reset_wait_ms", bridge.port.empty() ? 0u : 600u);
  bridge.timeout_ms = j.at("timeout_ms").get<std::uint32_t>();
  bridge.retry_max_ms = j.at("retry_max_ms").get<std::uint32_t>();
  bridge.max_in_flight = j.at("max_in_flight").get<std::uint32_t>();
  return bridge;
}

std::expected<void, std::string> parse_bridges(const json& list, std::vector<BridgeConfig>& out) {
  std::set<std::string> ids;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto where = "bridges[" + std::to_string(i) + "]";
    auto bridge = parse_bridge(list[i], where);
    if (!bridge) return std::unexpected(bridge.error());
    if (!ids.insert(bridge->id).second) return std::unexpected(where + ".id: '" + bridge->id + "' is used by another bridge");
    out.push_back(std::move(*bridge));
  }
  return {};
}

std::expected<Config, std::string> from_json(json document) {
  static const json schema = [] {
    auto whole = json::parse(kConfigSchema);
    add_mcp_schema(whole);
    add_uplink_schema(whole);
    whole["properties"]["serial"] = json::parse(serial::kSerialConfigSchema);
    return whole;
  }();
  if (auto valid = schema::validate(schema, document, ""); !valid) return std::unexpected(valid.error());
  Config config;
  config.device = document["device"].get<std::string>();
  config.board = document["board"].get<std::string>();
  config.pwm_sysfs_root = document["pwm_sysfs_root"].get<std::string>();
  config.listen = document["listen"].get<std::vector<std::string>>();
  for (std::size_t i = 0; i < document["tty"].size(); ++i) {
    auto tty = parse_tty(document["tty"][i].get<std::string>());
    if (!tty) return std::unexpected("tty[" + std::to_string(i) + "]: " + tty.error());
    config.ttys.push_back(*tty);
  }
  config.log_level = document["log_level"].get<std::string>();
  config.dbus = document["dbus"].get<std::string>();
  const auto& limits = document["limits"];
  config.limits = {limits["max_line_bytes"].get<std::size_t>(), limits["client_queue_bytes"].get<std::size_t>(),
                   limits["max_clients"].get<std::size_t>()};
  if (config.board == "none" && !document["pins"].empty()) {
    return std::unexpected("pins: board \"none\" has no pins; remove them or choose a board");
  }
  for (std::size_t i = 0; i < document["pins"].size(); ++i) {
    auto pin = parse_pin(document["pins"][i], "pins[" + std::to_string(i) + "]", config.board);
    if (!pin) return std::unexpected(pin.error());
    config.pins.push_back(std::move(*pin));
  }
  if (auto checked = check_pins(config.pins); !checked) return std::unexpected(checked.error());
  auto mcp = parse_mcp_sections(document);
  if (!mcp) return std::unexpected(mcp.error());
  config.mcp = std::move(*mcp);
  config.serial = serial::parse_config(document["serial"]);
  if (auto bridges = parse_bridges(document["bridges"], config.bridges); !bridges) return std::unexpected(bridges.error());
  // --check-config shows what a bridge really uses: defaults that depend on the
  // link are not in the schema, and a TCP link has no baud rate.
  for (std::size_t i = 0; i < config.bridges.size(); ++i) {
    auto& shown = document["bridges"][i];
    shown["reset_wait_ms"] = config.bridges[i].reset_wait_ms;
    if (!config.bridges[i].tcp.empty()) shown.erase("baud");
  }
  auto uplink = parse_uplink_sections(document);
  if (!uplink) return std::unexpected(uplink.error());
  config.uplink = std::move(*uplink);
  hide_uplink_secrets(document);  // --check-config prints the document
  config.resolved = std::move(document);
  return config;
}

constexpr std::size_t kMaxConfigBytes = 1024 * 1024;
constexpr std::size_t kMaxConfigNesting = 64;

// Finds a key with more dotted parts, or a value with deeper arrays and inline
// tables, than `limit`, without parsing: strings and comments are skipped. The
// error starts with the line number.
std::expected<void, std::string> check_toml_nesting(std::string_view text, std::size_t limit) {
  std::size_t line = 1, depth = 0, dots = 0;
  bool in_key = true;  // before the line's '=' (or in a [table] header)
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      const bool triple = text.substr(i, 3) == std::string(3, c);
      std::size_t end = i + (triple ? 3 : 1);
      // Skip to the closing quote(s); in basic strings a backslash escapes the next character.
      while (end < text.size() && (triple ? text.substr(end, 3) != std::string(3, c) : text[end] != c && text[end] != '\n')) {
        if (text[end] == '\n') ++line;
        end += (c == '"' && text[end] == '\\') ? 2 : 1;
      }
      if (end >= text.size()) break;  // unterminated: the parser reports it
      i = triple ? end + 2 : (text[end] == '\n' ? end - 1 : end);  // a one-line string cut by its line: go on there
      continue;
    }
    if (c == '#') {
      i = std::min(text.find('\n', i), text.size()) - 1;
    } else if (c == '\n') {
      ++line;
      dots = 0;
      in_key = depth == 0;
    } else if (c == '=' && depth == 0) {
      in_key = false;
    } else if (c == '.' && ++dots >= (in_key ? limit : limit * 16)) {
      // In a value a dot may be a decimal point: only a line full of them is refused.
      return std::unexpected(std::to_string(line) + ": a key of more than " + std::to_string(limit) + " dotted parts");
    } else if ((c == '[' || c == '{') && !in_key && ++depth > limit) {
      return std::unexpected(std::to_string(line) + ": arrays or inline tables nested deeper than " + std::to_string(limit));
    } else if ((c == ']' || c == '}') && !in_key && depth > 0) {
      --depth;
    }
  }
  return {};
}

}  // namespace

std::expected<Config, std::string> parse(std::string_view toml_text, std::string_view source) {
  // toml++ parses nesting recursively: bound what reaches it.
  if (toml_text.size() > kMaxConfigBytes) {
    return std::unexpected(std::string(source) + ": " + std::to_string(toml_text.size()) + " bytes, more than a configuration may have (" +
                           std::to_string(kMaxConfigBytes) + ")");
  }
  if (auto nesting = check_toml_nesting(toml_text, kMaxConfigNesting); !nesting)
    return std::unexpected(std::string(source) + ":" + nesting.error());
  toml::table table;
  try {
    table = toml::parse(toml_text, source);
  } catch (const toml::parse_error& e) {
    std::ostringstream message;
    message << source << ":" << e.source().begin.line << ":" << e.source().begin.column << ": " << e.description();
    return std::unexpected(message.str());
  }
  auto document = to_json(table, "");
  if (!document) return std::unexpected(std::string(source) + ": " + document.error());
  auto config = from_json(*document);
  if (!config) return std::unexpected(std::string(source) + ": " + config.error());
  return config;
}

std::expected<Config, std::string> load_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::unexpected(path + ": cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), path);
}

Config builtin() {
  auto config = parse(kBuiltinConfig, "built-in simulated board");
  // The built-in text is tested; failing here is a build defect, not a user error.
  if (!config) throw std::logic_error(config.error());
  return std::move(*config);
}

std::expected<TtyConfig, std::string> parse_tty(std::string_view spec) {
  TtyConfig tty;
  const auto colon = spec.rfind(':');
  tty.path = std::string(spec.substr(0, colon));
  if (colon != std::string_view::npos) {
    const auto baud_text = spec.substr(colon + 1);
    const auto [end, ec] = std::from_chars(baud_text.data(), baud_text.data() + baud_text.size(), tty.baud);
    if (ec != std::errc{} || end != baud_text.data() + baud_text.size() || tty.baud == 0) {
      return std::unexpected("'" + std::string(spec) + "': baud rate must be a positive number after ':'");
    }
  }
  if (tty.path.empty() || tty.path.front() != '/') {
    return std::unexpected("'" + std::string(spec) + "': expected an absolute device path, e.g. /dev/ttyGS0:115200");
  }
  return tty;
}

}  // namespace mcpud::config
