// SPDX-License-Identifier: MIT
// The line settings of a serial port (baud, framing, flow control) and how they
// are applied to a tty with termios.
// Plain data and functions without state; any thread.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace mcpud::io {

enum class Parity { None, Even, Odd, Mark, Space };
enum class StopBits { One, OnePointFive, Two };
enum class FlowControl { None, RtsCts, XonXoff };

struct PortSettings {
  std::uint32_t baud = 115200;
  int data_bits = 8;  // 5..8
  StopBits stop_bits = StopBits::One;
  Parity parity = Parity::None;
  FlowControl flow_control = FlowControl::None;
  bool hang_up_on_close = false;  // drop DTR when the port is closed (resets Arduino-style boards)
};

std::optional<Parity> parse_parity(std::string_view name);
std::optional<FlowControl> parse_flow_control(std::string_view name);
// 1, 1.5 or 2.
std::optional<StopBits> stop_bits_from(double value);
std::string_view parity_name(Parity parity);
std::string_view flow_control_name(FlowControl flow);
double stop_bits_value(StopBits stop_bits);

// Whether termios has a constant for this rate (others need termios2, which
// not every driver takes).
bool is_standard_baud(std::uint32_t baud);

// Checks combinations termios cannot express: Linux makes 1.5 stop bits only
// from "2 stop bits" with 5 data bits, as the 16550 does. The error names the field.
std::expected<void, std::string> check(const PortSettings& settings);

// Puts the tty in raw mode with `settings` (any baud the driver accepts, via
// termios2) and reads back what the driver actually uses. The error carries the
// OS message.
std::expected<PortSettings, std::string> configure(int fd, const PortSettings& settings);

// termios2 speed access, kept in its own file because <asm/termbits.h> and
// <termios.h> cannot be included together.
std::expected<void, std::string> set_baud(int fd, std::uint32_t baud);
std::expected<std::uint32_t, std::string> get_baud(int fd);

}  // namespace mcpud::io
