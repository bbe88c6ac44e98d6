// SPDX-License-Identifier: MIT
// i2c_scan, i2c_read and i2c_write.
#include "i2c_access.hpp"
#include "i2c_request.hpp"
#include "mcpud/buses/bus_devices.hpp"
#include "mcpud/buses/bus_tools.hpp"
#include "tool_schema.hpp"

namespace mcpud::buses {
namespace {

using nlohmann::json;

// i2cdetect's default range: 0x00-0x07 and 0x78-0x7F are reserved addresses.
constexpr unsigned kFirstAddress = 0x08, kLastAddress = 0x77;

json bus_property() { return integer_schema(0, 1023, "The I2C bus number N of /dev/i2c-N"); }
json address_property() {
  return integer_schema(kFirstAddress, kLastAddress, "7-bit device address, 8-119 (0x08-0x77)");
}
json modes(const char* description) {
  return {{"type", "string"},
          {"enum", {"byte", "word", "block", "i2c_block", "transfer"}},
          {"default", "byte"},
          {"description", description}};
}

json address_row(unsigned address, const char* state, const I2cBusConfig& bus) {
  json row{{"address", address}, {"hex", hex_address(address)}, {"state", state}};
  const auto* device = bus.device(static_cast<std::uint8_t>(address));
  row["configured"] = device != nullptr;
  row["write"] = device && device->write;
  if (device && !device->name.empty()) row["name"] = device->name;
  return row;
}

Result<json> scan(const BusSettings& settings, unsigned bus_number) {
  auto bus = check_i2c_scan(settings.i2c(), bus_number);
  if (!bus) return std::unexpected(bus.error());
  auto adapter = I2cAdapter::open(settings.nodes(), settings.i2c().dev_root, bus_number);
  if (!adapter) return std::unexpected(adapter.error());
  json rows = json::array();
  for (unsigned address = kFirstAddress; address <= kLastAddress; ++address) {
    const auto a = static_cast<std::uint8_t>(address);
    // A driver's address is never probed: the probe could disturb what the driver does.
    if (const auto owner = address_owner(settings.i2c().sysfs_root, bus_number, a)) {
      auto row = address_row(address, "claimed", **bus);
      row["driver"] = owner->driver.empty() ? json(nullptr) : json(owner->driver);
      rows.push_back(std::move(row));
      continue;
    }
    if (!adapter->select(a, false)) {
      rows.push_back(address_row(address, "busy", **bus));
      continue;
    }
    const auto answered = adapter->probe();
    if (!answered) return std::unexpected(answered.error());
    if (*answered) {
      rows.push_back(address_row(address, "answered", **bus));
    } else if ((*bus)->device(a)) {
      rows.push_back(address_row(address, "no_answer", **bus));  // configured, but silent: worth saying
    }
  }
  return json{{"bus", bus_number},
              {"device", settings.i2c().dev_root + "/i2c-" + std::to_string(bus_number)},
              {"addresses", std::move(rows)}};
}

// Opens the adapter and selects the address `target` allows.
Result<I2cAdapter> open_selected(const BusSettings& settings, const I2cRequest& request, const I2cTarget& target) {
  auto adapter = I2cAdapter::open(settings.nodes(), settings.i2c().dev_root, request.bus);
  if (!adapter) return adapter;
  if (auto selected = adapter->select(request.address, target.force); !selected) {
    return std::unexpected(selected.error());
  }
  return adapter;
}

json reply_head(const I2cRequest& request) {
  json out{{"bus", request.bus}, {"address", request.address}, {"mode", i2c_mode_name(request.mode)}};
  if (request.reg) out["register"] = *request.reg;
  return out;
}

// Runs `run` (i2c_read's or i2c_write's transfer) on the selected device; the reply
// repeats what was asked in front of what came back.
Result<json> run_selected(const BusSettings& settings, const I2cRequest& request, const I2cTarget& target,
                          Result<json> (*run)(I2cAdapter&, const I2cRequest&)) {
  auto adapter = open_selected(settings, request, target);
  if (!adapter) return std::unexpected(adapter.error());
  auto result = run(*adapter, request);
  if (!result) return result;
  auto out = reply_head(request);
  out.update(*result);
  return out;
}

Result<json> read(const BusSettings& settings, LastTransfers& transfers, const json& args) {
  auto request = parse_i2c_read(args, settings.i2c().max_transfer_bytes);
  if (!request) return std::unexpected(request.error());
  auto target = check_i2c_access(settings.i2c(), request->bus, request->address, I2cAccess::Read);
  if (!target) return std::unexpected(target.error());
  // More than a register pointer written first is a write: it may change the device.
  if (request->data.size() > 1 && !target->device->write) {
    return std::unexpected(Error::domain(
        DomainError::NotAuthorized,
        hex_address(request->address) + " on I2C bus " + std::to_string(request->bus) +
            " is read-only: a transfer may write at most 1 byte (a register number) first; set write = true at "
            "i2c.buses[" +
            std::to_string(target->bus->index) + "].devices[" +
            std::to_string(target->device - target->bus->devices.data()) + "] to write more"));
  }
  auto out = run_selected(settings, *request, *target, run_i2c_read);
  if (out) transfers.note_i2c("i2c_read", request->bus, request->address, *out, request->data);
  return out;
}

// The bytes a write puts on the bus after the register: its data, or its value (a word low byte first).
Bytes written_bytes(const I2cRequest& request) {
  if (!request.value) return request.data;
  if (request.mode == I2cMode::Word) {
    return {static_cast<std::uint8_t>(*request.value & 0xFF), static_cast<std::uint8_t>(*request.value >> 8)};
  }
  return {static_cast<std::uint8_t>(*request.value)};
}

Result<json> write(const BusSettings& settings, LastTransfers& transfers, const json& args) {
  auto request = parse_i2c_write(args, settings.i2c().max_transfer_bytes);
  if (!request) return std::unexpected(request.error());
  auto target = check_i2c_access(settings.i2c(), request->bus, request->address, I2cAccess::Write);
  if (!target) return std::unexpected(target.error());
  auto out = run_selected(settings, *request, *target, run_i2c_write);
  if (out) transfers.note_i2c("i2c_write", request->bus, request->address, *out, written_bytes(*request));
  return out;
}

void add_scan(ToolRegistry& registry, const BusSettings& settings) {
  const json row = {{"type", "object"},
                    {"properties",
                     {{"address", {{"type", "integer"}}},
                      {"hex", {{"type", "string"}}},
                      {"state", {{"type", "string"}, {"enum", {"answered", "claimed", "busy", "no_answer"}}}},
                      // null while no driver is bound; anyOf, as single-type schema dialects read it
                      {"driver", {{"anyOf", json::array({{{"type", "string"}}, {{"type", "null"}}})}}},
                      {"configured", {{"type", "boolean"}}},
                      {"write", {{"type", "boolean"}}},
                      {"name", {{"type", "string"}}}}},
                    {"required", {"address", "hex", "state", "configured", "write"}}};
  add_bus_tool(
      registry, kI2cToolsOwner, "i2c_scan", "Scan an I2C bus",
      "List the addresses 0x08-0x77 that answer on an I2C bus (probed as i2cdetect does), and those a kernel "
      "driver claims (never probed; `driver` names it); configured and write say what i2c_read/i2c_write may do",
      object_schema({{"bus", bus_property()}}, {"bus"}),
      {{"type", "object"},
       {"properties",
        {{"bus", {{"type", "integer"}}},
         {"device", {{"type", "string"}}},
         {"addresses", {{"type", "array"}, {"items", row}}}}},
       {"required", {"bus", "device", "addresses"}}},
      [&settings](json args, ToolReply reply) { reply(scan(settings, args.at("bus").get<unsigned>())); }, kReads);
}

// i2c_read's and i2c_write's arguments: which device, how (`modes_text`), which
// register (`register_text`), and `more`.
json transfer_input(const char* modes_text, const char* register_text, json more) {
  json properties = {{"bus", bus_property()},
                     {"address", address_property()},
                     {"mode", modes(modes_text)},
                     {"register", integer_schema(0, 255, register_text)}};
  properties.update(more);
  return object_schema(properties, {"bus", "address"});
}

json transfer_output(json more) {
  json properties = {{"bus", {{"type", "integer"}}},
                     {"address", {{"type", "integer"}}},
                     {"mode", {{"type", "string"}}},
                     {"register", {{"type", "integer"}}}};
  properties.update(more);
  return {{"type", "object"}, {"properties", properties}, {"required", {"bus", "address", "mode"}}};
}

void add_read(ToolRegistry& registry, const BusSettings& settings, LastTransfers& transfers) {
  const auto input = transfer_input(
      "byte: SMBus read byte (receive byte without register); word: read word (low byte first); block: SMBus "
      "block read (the device says how many); i2c_block: `length` bytes from `register` on; transfer: plain "
      "I2C, write `write` then read `length` bytes",
      "Register (SMBus command) to read",
      {{"length", integer_schema(1, kI2cMessageMax,
                                 "Bytes to read: i2c_block 1-32, transfer up to [i2c] "
                                 "max_transfer_bytes")},
       {"write", bytes_schema(kI2cMessageMax, "transfer: bytes written before the read (repeated start)")}});
  add_bus_tool(
      registry, kI2cToolsOwner, "i2c_read", "Read an I2C device",
      "Read a configured I2C device: a register's byte, word or block, or a plain write-then-read transfer", input,
      transfer_output({{"value", {{"type", "integer"}}},
                       {"data", {{"type", "array"}, {"items", {{"type", "integer"}}}}},
                       {"hex", {{"type", "string"}}}}),
      [&settings, &transfers](json args, ToolReply reply) { reply(read(settings, transfers, args)); }, kReads);
}

void add_write(ToolRegistry& registry, const BusSettings& settings, LastTransfers& transfers) {
  const auto input = transfer_input(
      "byte: SMBus write byte (send byte without register); word: write word; block: SMBus block write (with a "
      "count); i2c_block: `data` from `register` on; transfer: plain I2C write of `data`",
      "Register (SMBus command) to write",
      {{"value", integer_schema(0, 65535, "byte: 0-255, word: 0-65535")},
       {"data",
        bytes_schema(kI2cMessageMax, "block, i2c_block: 1-32 bytes; transfer: up to [i2c] max_transfer_bytes")}});
  add_bus_tool(
      registry, kI2cToolsOwner, "i2c_write", "Write to an I2C device",
      "Write to an I2C device configured with write = true: a register's byte, word or block, or a "
      "plain transfer",
      input, transfer_output({{"bytes_written", {{"type", "integer"}}}}),
      [&settings, &transfers](json args, ToolReply reply) { reply(write(settings, transfers, args)); },
      kTalksToADevice);
}

}  // namespace

void register_i2c_tools(ToolRegistry& registry, const BusSettings& settings, LastTransfers& transfers) {
  ToolRegistry::Batch batch(registry);
  add_scan(registry, settings);
  add_read(registry, settings, transfers);
  add_write(registry, settings, transfers);
}

}  // namespace mcpud::buses
