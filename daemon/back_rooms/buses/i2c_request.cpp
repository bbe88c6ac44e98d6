// SPDX-License-Identifier: MIT
// i2c_read and i2c_write arguments, and running them.
#include "i2c_request.hpp"

#include <array>
#include <string_view>

namespace mcpud::buses {
namespace {

using nlohmann::json;

struct ModeName {
  I2cMode mode;
  std::string_view name;
};
constexpr std::array kModes{ModeName{I2cMode::Byte, "byte"}, ModeName{I2cMode::Word, "word"},
                            ModeName{I2cMode::Block, "block"}, ModeName{I2cMode::I2cBlock, "i2c_block"},
                            ModeName{I2cMode::Transfer, "transfer"}};

Error invalid(const std::string& field, const std::string& why) {
  return Error::domain(DomainError::InvalidArgument, "params." + field + ": " + why);
}

I2cMode mode_of(const json& args) {
  const auto& name = args.at("mode").get_ref<const std::string&>();
  for (const auto& m : kModes) {
    if (m.name == name) return m.mode;
  }
  return I2cMode::Byte;  // the schema's enum allows no other
}

// What every request has: bus, address, mode, register.
I2cRequest common(const json& args) {
  I2cRequest request;
  request.bus = args.at("bus").get<unsigned>();
  request.address = args.at("address").get<std::uint8_t>();
  request.mode = mode_of(args);
  if (args.contains("register")) request.reg = args["register"].get<std::uint8_t>();
  return request;
}

Bytes bytes_of(const json& array) {
  Bytes out;
  out.reserve(array.size());
  for (const auto& b : array) out.push_back(b.get<std::uint8_t>());
  return out;
}

std::string mode_text(I2cMode mode) { return std::string("mode ") + i2c_mode_name(mode); }

// Refuses the keys that `mode` does not take, and asks for the ones it needs.
Result<void> keys_for(const json& args, I2cMode mode, std::initializer_list<const char*> needed,
                      std::initializer_list<const char*> unused) {
  for (const char* key : needed) {
    if (!args.contains(key)) return std::unexpected(invalid(key, "required with " + mode_text(mode)));
  }
  for (const char* key : unused) {
    if (args.contains(key)) return std::unexpected(invalid(key, "not used with " + mode_text(mode)));
  }
  return {};
}

Result<void> check_length(const std::string& field, std::size_t length, std::size_t max, const std::string& what) {
  if (length >= 1 && length <= max) return {};
  return std::unexpected(
      invalid(field, std::to_string(length) + " bytes: " + what + " takes 1 to " + std::to_string(max)));
}

constexpr const char* kTransfer = "a transfer ([i2c] max_transfer_bytes)";

// Reads the byte array `key` into `data`: 1 to `max` bytes for `what`.
Result<void> take_bytes(const json& args, const char* key, Bytes& data, std::size_t max, const std::string& what) {
  data = bytes_of(args[key]);
  return check_length(key, data.size(), max, what);
}

// Reads `length` into the request: 1 to `max` bytes for `what`.
Result<void> take_length(const json& args, I2cRequest& request, std::size_t max, const std::string& what) {
  request.length = args["length"].get<std::size_t>();
  return check_length("length", request.length, max, what);
}

// The keys an i2c_read takes in its mode, checked and read into `request`.
Result<void> take_read_keys(const json& args, I2cRequest& request, std::size_t max_transfer_bytes) {
  switch (request.mode) {
    case I2cMode::Byte:
      return keys_for(args, request.mode, {}, {"length", "write"});
    case I2cMode::Word:
    case I2cMode::Block:
      return keys_for(args, request.mode, {"register"}, {"length", "write"});
    case I2cMode::I2cBlock:
      if (auto keys = keys_for(args, request.mode, {"register", "length"}, {"write"}); !keys) return keys;
      return take_length(args, request, kSmbusBlockMax, "an I2C block read");
    case I2cMode::Transfer:
      if (auto keys = keys_for(args, request.mode, {"length"}, {"register"}); !keys) return keys;
      if (auto length = take_length(args, request, max_transfer_bytes, kTransfer); !length) return length;
      if (!args.contains("write")) return {};
      return take_bytes(args, "write", request.data, max_transfer_bytes, kTransfer);
  }
  return {};
}

// The keys an i2c_write takes in its mode, checked and read into `request` (but `value`).
Result<void> take_write_keys(const json& args, I2cRequest& request, std::size_t max_transfer_bytes) {
  switch (request.mode) {
    case I2cMode::Byte:
      if (auto keys = keys_for(args, request.mode, {"value"}, {"data"}); !keys) return keys;
      if (args["value"].get<unsigned>() > 0xFF) return std::unexpected(invalid("value", "a byte is 0 to 255"));
      return {};
    case I2cMode::Word:
      return keys_for(args, request.mode, {"register", "value"}, {"data"});
    case I2cMode::Block:
    case I2cMode::I2cBlock:
      if (auto keys = keys_for(args, request.mode, {"register", "data"}, {"value"}); !keys) return keys;
      return take_bytes(args, "data", request.data, kSmbusBlockMax, "an SMBus or I2C block");
    case I2cMode::Transfer:
      if (auto keys = keys_for(args, request.mode, {"data"}, {"register", "value"}); !keys) return keys;
      return take_bytes(args, "data", request.data, max_transfer_bytes, kTransfer);
  }
  return {};
}

}  // namespace

const char* i2c_mode_name(I2cMode mode) {
  for (const auto& m : kModes) {
    if (m.mode == mode) return m.name.data();
  }
  return "byte";
}

std::string to_hex(const Bytes& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const auto b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0xF]);
  }
  return out;
}

Result<I2cRequest> parse_i2c_read(const json& args, std::size_t max_transfer_bytes) {
  auto request = common(args);
  if (auto keys = take_read_keys(args, request, max_transfer_bytes); !keys) return std::unexpected(keys.error());
  return request;
}

Result<I2cRequest> parse_i2c_write(const json& args, std::size_t max_transfer_bytes) {
  auto request = common(args);
  if (auto keys = take_write_keys(args, request, max_transfer_bytes); !keys) return std::unexpected(keys.error());
  if (args.contains("value")) request.value = args["value"].get<std::uint16_t>();
  return request;
}

Result<json> run_i2c_read(I2cAdapter& adapter, const I2cRequest& r) {
  const auto with_bytes = [](Bytes bytes) -> json {
    json out{{"data", bytes}, {"hex", to_hex(bytes)}};
    return out;
  };
  switch (r.mode) {
    case I2cMode::Byte: {
      auto byte = r.reg ? adapter.read_byte(*r.reg) : adapter.receive_byte();
      if (!byte) return std::unexpected(byte.error());
      auto out = with_bytes({*byte});
      out["value"] = *byte;
      return out;
    }
    case I2cMode::Word: {
      auto word = adapter.read_word(*r.reg);
      if (!word) return std::unexpected(word.error());
      // SMBus sends the low byte first; data is in that order.
      auto out = with_bytes({static_cast<std::uint8_t>(*word & 0xFF), static_cast<std::uint8_t>(*word >> 8)});
      out["value"] = *word;
      return out;
    }
    case I2cMode::Block: {
      auto block = adapter.read_block(*r.reg);
      if (!block) return std::unexpected(block.error());
      return with_bytes(std::move(*block));
    }
    case I2cMode::I2cBlock: {
      auto block = adapter.read_i2c_block(*r.reg, r.length);
      if (!block) return std::unexpected(block.error());
      return with_bytes(std::move(*block));
    }
    case I2cMode::Transfer: {
      auto read = adapter.transfer(r.data, r.length);
      if (!read) return std::unexpected(read.error());
      return with_bytes(std::move(*read));
    }
  }
  return std::unexpected(Error::internal("unknown I2C mode"));
}

Result<json> run_i2c_write(I2cAdapter& adapter, const I2cRequest& r) {
  Result<void> done;
  std::size_t written = r.data.size();
  switch (r.mode) {
    case I2cMode::Byte:
      done = r.reg ? adapter.write_byte(*r.reg, static_cast<std::uint8_t>(*r.value))
                   : adapter.send_byte(static_cast<std::uint8_t>(*r.value));
      written = 1;
      break;
    case I2cMode::Word:
      done = adapter.write_word(*r.reg, *r.value);
      written = 2;
      break;
    case I2cMode::Block:
      done = adapter.write_block(*r.reg, r.data);
      break;
    case I2cMode::I2cBlock:
      done = adapter.write_i2c_block(*r.reg, r.data);
      break;
    case I2cMode::Transfer: {
      auto sent = adapter.transfer(r.data, 0);
      if (!sent) done = std::unexpected(sent.error());
      break;
    }
  }
  if (!done) return std::unexpected(done.error());
  return json{{"bytes_written", written}};
}

}  // namespace mcpud::buses
