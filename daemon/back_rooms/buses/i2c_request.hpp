// SPDX-License-Identifier: MIT
// The arguments of i2c_read and i2c_write, checked beyond what their schema
// says (which mode needs a register, a value or data; the bounds of blocks and
// transfers) and turned into one request; and running a request on an adapter.
// Plain functions; event loop only where they touch an adapter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "i2c_adapter.hpp"
#include "mcpud/buses/bus_config.hpp"
#include "mcpud/core/error.hpp"

namespace mcpud::buses {

enum class I2cMode { Byte, Word, Block, I2cBlock, Transfer };

struct I2cRequest {
  unsigned bus{};
  std::uint8_t address{};
  I2cMode mode = I2cMode::Byte;
  std::optional<std::uint8_t> reg;     // none: receive/send byte, or a transfer
  std::optional<std::uint16_t> value;  // byte and word writes
  Bytes data;                          // block writes; what a transfer writes first
  std::size_t length{};                // what an I2C block read or a transfer reads
};

// INVALID_ARGUMENT naming the argument ("params.register: ...").
Result<I2cRequest> parse_i2c_read(const nlohmann::json& args, std::size_t max_transfer_bytes);
Result<I2cRequest> parse_i2c_write(const nlohmann::json& args, std::size_t max_transfer_bytes);

// Runs a selected adapter's read: {value?, data, hex}.
Result<nlohmann::json> run_i2c_read(I2cAdapter& adapter, const I2cRequest& request);
// Runs a write: {bytes_written}.
Result<nlohmann::json> run_i2c_write(I2cAdapter& adapter, const I2cRequest& request);

// Lower-case hex of `bytes`, two digits each ("0a1b").
std::string to_hex(const Bytes& bytes);
const char* i2c_mode_name(I2cMode mode);

}  // namespace mcpud::buses
