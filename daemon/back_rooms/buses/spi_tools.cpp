// SPDX-License-Identifier: MIT
// spi_transfer on the SPI devices [spi] lists, within their speed and length.
#include "i2c_request.hpp"
#include "mcpud/buses/bus_devices.hpp"
#include "mcpud/buses/bus_tools.hpp"
#include "spi_device.hpp"
#include "tool_schema.hpp"

namespace mcpud::buses {
namespace {

using nlohmann::json;

// The most any [[spi.devices]] may allow (the schema's maximum of max_transfer_bytes).
constexpr std::size_t kMaxSpiBytes = 65536;

Error invalid(const std::string& message) { return Error::domain(DomainError::InvalidArgument, message); }

std::string configured_devices(const SpiConfig& config) {
  if (config.devices.empty()) return "none is";
  std::string out;
  for (const auto& d : config.devices) out += (out.empty() ? "" : ", ") + spi_device_name(d.bus, d.chip_select);
  return out + (config.devices.size() == 1 ? " is" : " are");
}

// The transfer `args` ask for, within what `device` allows.
Result<SpiTransfer> transfer_of(const json& args, const SpiDeviceConfig& device) {
  const std::string key = "spi.devices[" + std::to_string(device.index) + "]";
  SpiTransfer t;
  t.bus = device.bus;
  t.chip_select = device.chip_select;
  for (const auto& b : args.at("data")) t.tx.push_back(b.get<std::uint8_t>());
  t.mode = args.at("mode").get<std::uint8_t>();
  t.bits_per_word = args.at("bits_per_word").get<std::uint8_t>();
  t.speed_hz = args.contains("speed_hz") ? args["speed_hz"].get<std::uint32_t>() : device.max_speed_hz;
  if (t.tx.size() > device.max_transfer_bytes) {
    return std::unexpected(invalid("params.data: " + std::to_string(t.tx.size()) + " bytes is more than " +
                                   std::to_string(device.max_transfer_bytes) + " (" + key + ".max_transfer_bytes)"));
  }
  if (t.speed_hz > device.max_speed_hz) {
    return std::unexpected(invalid("params.speed_hz: " + std::to_string(t.speed_hz) + " Hz is more than " +
                                   std::to_string(device.max_speed_hz) + " (" + key + ".max_speed_hz)"));
  }
  const auto word = spi_word_bytes(t.bits_per_word);
  if (t.tx.size() % word != 0) {
    return std::unexpected(invalid("params.data: " + std::to_string(t.tx.size()) +
                                   " bytes is not whole words: " + std::to_string(t.bits_per_word) +
                                   " bits per word take " + std::to_string(word) + " bytes each (low byte first)"));
  }
  return t;
}

Result<json> run(const BusSettings& settings, LastTransfers& transfers, const json& args) {
  const auto bus = args.at("bus").get<unsigned>();
  const auto chip_select = args.at("chip_select").get<unsigned>();
  const auto* device = settings.spi().device(bus, chip_select);
  if (!device) {
    return std::unexpected(Error::domain(DomainError::NotAuthorized,
                                         spi_device_name(bus, chip_select) + " is not configured (" +
                                             configured_devices(settings.spi()) +
                                             "): add [[spi.devices]] with bus = " + std::to_string(bus) +
                                             " and chip_select = " + std::to_string(chip_select) + " to mcpud.toml"));
  }
  auto transfer = transfer_of(args, *device);
  if (!transfer) return std::unexpected(transfer.error());
  auto rx = spi_transfer(settings.nodes(), settings.spi().dev_root, *transfer);
  if (!rx) return std::unexpected(rx.error());
  json out{{"bus", bus},
           {"chip_select", chip_select},
           {"mode", transfer->mode},
           {"speed_hz", transfer->speed_hz},
           {"bits_per_word", transfer->bits_per_word},
           {"data", *rx},
           {"hex", to_hex(*rx)}};
  transfers.note_spi(bus, chip_select, out, transfer->tx);
  return out;
}

}  // namespace

void register_spi_tools(ToolRegistry& registry, const BusSettings& settings, LastTransfers& transfers) {
  json data = bytes_schema(kMaxSpiBytes, "Bytes to send; as many are read back (full duplex)");
  data["minItems"] = 1;
  json mode = integer_schema(0, 3, "SPI mode 0-3 (CPOL, CPHA)");
  mode["default"] = 0;
  json bits = integer_schema(1, 32, "Bits per word, 8 for bytes; wider words take 2 or 4 bytes of data each");
  bits["default"] = 8;
  const json properties = {
      {"bus", integer_schema(0, 1023, "SPI bus B of /dev/spidevB.C")},
      {"chip_select", integer_schema(0, 255, "Chip select C of /dev/spidevB.C")},
      {"data", std::move(data)},
      {"mode", std::move(mode)},
      {"speed_hz", integer_schema(1000, 200000000, "Clock in Hz (default and most: the device's max_speed_hz)")},
      {"bits_per_word", std::move(bits)}};
  const json output = {{"type", "object"},
                       {"properties",
                        {{"bus", {{"type", "integer"}}},
                         {"chip_select", {{"type", "integer"}}},
                         {"mode", {{"type", "integer"}}},
                         {"speed_hz", {{"type", "integer"}}},
                         {"bits_per_word", {{"type", "integer"}}},
                         {"data", {{"type", "array"}, {"items", {{"type", "integer"}}}}},
                         {"hex", {{"type", "string"}}}}},
                       {"required", {"bus", "chip_select", "data", "hex"}}};
  add_bus_tool(
      registry, kSpiToolsOwner, "spi_transfer", "Transfer bytes over SPI",
      "Full-duplex SPI transfer on a configured /dev/spidevB.C: sends `data`, returns the bytes read "
      "meanwhile",
      object_schema(properties, {"bus", "chip_select", "data"}), output,
      [&settings, &transfers](json args, ToolReply reply) { reply(run(settings, transfers, args)); }, kTalksToADevice);
}

}  // namespace mcpud::buses
