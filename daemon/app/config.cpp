// SPDX-License-Identifier: MIT
// TOML to JSON, schema validation, and the checks a schema cannot express.
#include "config.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <utility>

#include "config_schema.hpp"
#include "mcpud/core/regular_file.hpp"
#include "mcpud/core/schema.hpp"
#include "mcpud/core/toml_document.hpp"

namespace mcpud::config {

extern const char* const kBuiltinConfig;

using nlohmann::json;

const json& schema() {
  static const json whole = [] {
    auto assembled = json::parse(kConfigSchema);
    pins::add_board_schema(assembled);
    bridge::add_bridges_schema(assembled);
    add_mcp_schema(assembled);
    add_safety_schema(assembled);
    uplinks::add_uplink_schema(assembled);
    assembled["properties"]["serial"] = json::parse(serial::kSerialConfigSchema);
    assembled["properties"]["i2c"] = json::parse(buses::kI2cConfigSchema);
    assembled["properties"]["spi"] = json::parse(buses::kSpiConfigSchema);
    return assembled;
  }();
  return whole;
}

namespace {

// [safety]'s pins are inputs of the board, named.
std::expected<void, std::string> check_safety_pins(const Config& config) {
  for (const auto& [key, name] :
       {std::pair{"estop_pin", config.safety.estop_pin}, std::pair{"approve_pin", config.safety.approve_pin}}) {
    if (name.empty()) continue;
    const auto pin =
        std::find_if(config.board.pins.begin(), config.board.pins.end(), [&](const auto& p) { return p.name == name; });
    if (pin == config.board.pins.end())
      return std::unexpected(std::string("safety.") + key + ": no pin named '" + name + "'");
    if (pin->type != hal::PinType::DigitalInput) {
      return std::unexpected(std::string("safety.") + key + ": '" + name + "' is not a digital_input");
    }
    if (!pin->sampling || pin->sampling->edges == EdgeMode::None) {
      return std::unexpected(std::string("safety.") + key + ": '" + name +
                             "' reports no edges: give it sampling = { edges = \"both\" }");
    }
  }
  return {};
}

// listen_tls has a certificate, and no address is in listen too.
std::expected<void, std::string> check_listen_tls(const Config& config) {
  if (!config.listen_tls.empty() && config.tls.certificate.empty())
    return std::unexpected("listen_tls: needs tls_cert and tls_key (the certificate chain and its private key, PEM)");
  for (std::size_t i = 0; i < config.listen_tls.size(); ++i) {
    if (config.listen_tls[i].ends_with(":0")) continue;  // a port of the kernel's choosing: never the same
    if (std::find(config.listen.begin(), config.listen.end(), config.listen_tls[i]) != config.listen.end())
      return std::unexpected("listen_tls[" + std::to_string(i) + "]: " + config.listen_tls[i] +
                             " is in listen too: an address speaks TLS or not");
  }
  return {};
}

std::expected<Config, std::string> from_json(json document) {
  // Compiled once: every load and SIGHUP checks against the same schema.
  static const schema::CompiledSchema compiled(config::schema());
  if (auto valid = compiled.validate(document, ""); !valid) return std::unexpected(valid.error());
  Config config;
  config.device = document["device"].get<std::string>();
  config.listen = document["listen"].get<std::vector<std::string>>();
  config.listen_tls = document["listen_tls"].get<std::vector<std::string>>();
  auto tls = parse_tls_files(document, "");
  if (!tls) return std::unexpected(tls.error());
  config.tls = std::move(*tls);
  if (auto checked = check_listen_tls(config); !checked) return std::unexpected(checked.error());
  for (std::size_t i = 0; i < document["tty"].size(); ++i) {
    auto tty = parse_tty(document["tty"][i].get<std::string>());
    if (!tty) return std::unexpected("tty[" + std::to_string(i) + "]: " + tty.error());
    config.ttys.push_back(*tty);
  }
  config.log_level = document["log_level"].get<std::string>();
  config.dbus = document["dbus"].get<std::string>();
  config.discovery = {document["discovery"]["announce"].get<bool>(), document["discovery"]["name"].get<std::string>()};
  const auto& limits = document["limits"];
  config.limits = {limits["max_line_bytes"].get<std::size_t>(), limits["client_queue_bytes"].get<std::size_t>(),
                   limits["max_clients"].get<std::size_t>(), limits["max_clients_per_address"].get<std::size_t>(),
                   limits["idle_timeout_s"].get<std::uint32_t>()};
  auto board = pins::parse_board_config(document);
  if (!board) return std::unexpected(board.error());
  config.board = std::move(*board);
  auto mcp = parse_mcp_sections(document);
  if (!mcp) return std::unexpected(mcp.error());
  config.mcp = std::move(*mcp);
  config.serial = serial::parse_config(document["serial"]);
  if (auto serial = serial::check_config(config.serial); !serial) return std::unexpected(serial.error());
  auto i2c = buses::parse_i2c_config(document["i2c"]);
  if (!i2c) return std::unexpected(i2c.error());
  config.i2c = std::move(*i2c);
  auto spi = buses::parse_spi_config(document["spi"]);
  if (!spi) return std::unexpected(spi.error());
  config.spi = std::move(*spi);
  auto bridges = bridge::parse_bridges(document);
  if (!bridges) return std::unexpected(bridges.error());
  config.bridges = std::move(*bridges);
  auto uplink = uplinks::parse_uplink_sections(document);
  if (!uplink) return std::unexpected(uplink.error());
  config.uplink = std::move(*uplink);
  auto safety = parse_safety_section(document);
  if (!safety) return std::unexpected(safety.error());
  config.safety = std::move(*safety);
  if (auto pins = check_safety_pins(config); !pins) return std::unexpected(pins.error());
  uplinks::hide_uplink_secrets(document);  // --check-config prints the document
  config.resolved = std::move(document);
  return config;
}

}  // namespace

std::expected<Config, std::string> parse(std::string_view toml_text, std::string_view source) {
  auto document = read_toml_document(toml_text, source);
  if (!document) return std::unexpected(document.error());
  auto config = from_json(std::move(*document));
  if (!config) return std::unexpected(std::string(source) + ": " + config.error());
  return config;
}

std::expected<Config, std::string> load_file(const std::string& path) {
  // Only a regular file: a directory read as an empty file would put the
  // defaults in place of the running configuration on SIGHUP.
  auto text = read_regular_file(path, kMaxConfigBytes);
  if (!text) return std::unexpected(text.error());
  return parse(*text, path);
}

Config builtin() {
  auto config = parse(kBuiltinConfig, "built-in simulated board");
  // The built-in text is tested; failing here is a build defect, not a user error.
  if (!config) throw std::logic_error(config.error());
  return std::move(*config);
}

Config defaults() {
  auto config = parse("", "an empty configuration");
  if (!config) throw std::logic_error(config.error());  // the schema's defaults are a build's own
  return std::move(*config);
}

bool uses_simulated_buses(const Config& config) {
  if (config.board.kind != pins::BoardKind::Sim) return false;
  if (!config.i2c.buses.empty() || !config.spi.devices.empty()) return true;
  return std::any_of(config.board.pins.begin(), config.board.pins.end(),
                     [](const auto& pin) { return pin.sensor.kind == pins::SensorSource::Kind::OneWire; });
}

std::expected<TtyConfig, std::string> parse_tty(std::string_view spec) {
  // Not a key of its own (a tty is one string), so not in the schema: its one place.
  constexpr std::uint32_t kBaudWithoutColon = 115200;
  TtyConfig tty{.path = {}, .baud = kBaudWithoutColon};
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
