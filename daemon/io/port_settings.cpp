// SPDX-License-Identifier: MIT
// Names of the settings, their checks, and raw-mode termios set-up.
#include "mcpud/io/port_settings.hpp"

#include "mcpud/core/enum_names.hpp"

#include <termios.h>

#include <cerrno>
#include <cstring>

namespace mcpud::io {
namespace {

constexpr EnumNames<Parity, 5> kParityNames{{{Parity::None, "none"},
                                             {Parity::Even, "even"},
                                             {Parity::Odd, "odd"},
                                             {Parity::Mark, "mark"},
                                             {Parity::Space, "space"}}};
constexpr EnumNames<FlowControl, 3> kFlowNames{
    {{FlowControl::None, "none"}, {FlowControl::RtsCts, "rts_cts"}, {FlowControl::XonXoff, "xon_xoff"}}};

std::string os_error(std::string_view what) { return std::string(what) + ": " + std::strerror(errno); }

tcflag_t size_flag(int data_bits) {
  switch (data_bits) {
    case 5:
      return CS5;
    case 6:
      return CS6;
    case 7:
      return CS7;
    default:
      return CS8;
  }
}

int data_bits_of(tcflag_t cflag) {
  switch (cflag & CSIZE) {
    case CS5:
      return 5;
    case CS6:
      return 6;
    case CS7:
      return 7;
    default:
      return 8;
  }
}

void apply_framing(termios& tio, const PortSettings& s) {
  tio.c_cflag &= ~(CSIZE | PARENB | PARODD | CMSPAR | CSTOPB | CRTSCTS);
  tio.c_cflag |= size_flag(s.data_bits) | CLOCAL | CREAD;
  if (s.parity != Parity::None) tio.c_cflag |= PARENB;
  if (s.parity == Parity::Odd || s.parity == Parity::Mark) tio.c_cflag |= PARODD;
  if (s.parity == Parity::Mark || s.parity == Parity::Space) tio.c_cflag |= CMSPAR;
  if (s.stop_bits != StopBits::One) tio.c_cflag |= CSTOPB;
  if (s.flow_control == FlowControl::RtsCts) tio.c_cflag |= CRTSCTS;
  if (s.hang_up_on_close) tio.c_cflag |= HUPCL;
  tio.c_iflag &= ~(IXON | IXOFF | IXANY);
  if (s.flow_control == FlowControl::XonXoff) tio.c_iflag |= IXON | IXOFF;
  // Reads never block in the kernel: the event loop waits for readiness.
  tio.c_cc[VMIN] = 1;
  tio.c_cc[VTIME] = 0;
}

PortSettings read_back(const termios& tio, std::uint32_t baud) {
  PortSettings s;
  s.baud = baud;
  s.data_bits = data_bits_of(tio.c_cflag);
  s.stop_bits = (tio.c_cflag & CSTOPB) ? (s.data_bits == 5 ? StopBits::OnePointFive : StopBits::Two) : StopBits::One;
  if (!(tio.c_cflag & PARENB)) {
    s.parity = Parity::None;
  } else if (tio.c_cflag & CMSPAR) {
    s.parity = (tio.c_cflag & PARODD) ? Parity::Mark : Parity::Space;
  } else {
    s.parity = (tio.c_cflag & PARODD) ? Parity::Odd : Parity::Even;
  }
  s.flow_control = (tio.c_cflag & CRTSCTS) ? FlowControl::RtsCts
                   : (tio.c_iflag & IXON)  ? FlowControl::XonXoff
                                           : FlowControl::None;
  return s;
}

std::optional<speed_t> standard_speed(std::uint32_t baud) {
  static constexpr std::pair<std::uint32_t, speed_t> kSpeeds[] = {
      {50, B50},           {75, B75},           {110, B110},         {134, B134},         {150, B150},
      {200, B200},         {300, B300},         {600, B600},         {1200, B1200},       {1800, B1800},
      {2400, B2400},       {4800, B4800},       {9600, B9600},       {19200, B19200},     {38400, B38400},
      {57600, B57600},     {115200, B115200},   {230400, B230400},   {460800, B460800},   {500000, B500000},
      {576000, B576000},   {921600, B921600},   {1000000, B1000000}, {1152000, B1152000}, {1500000, B1500000},
      {2000000, B2000000}, {2500000, B2500000}, {3000000, B3000000}, {3500000, B3500000}, {4000000, B4000000}};
  for (const auto& [rate, speed] : kSpeeds) {
    if (rate == baud) return speed;
  }
  return std::nullopt;
}

}  // namespace

bool is_standard_baud(std::uint32_t baud) { return standard_speed(baud).has_value(); }

std::optional<Parity> parse_parity(std::string_view name) { return value_named(kParityNames, name); }

std::optional<FlowControl> parse_flow_control(std::string_view name) { return value_named(kFlowNames, name); }

std::optional<StopBits> stop_bits_from(double value) {
  if (value == 1) return StopBits::One;
  if (value == 1.5) return StopBits::OnePointFive;
  if (value == 2) return StopBits::Two;
  return std::nullopt;
}

std::string_view parity_name(Parity parity) { return name_of(kParityNames, parity, "none"); }

std::string_view flow_control_name(FlowControl flow) { return name_of(kFlowNames, flow, "none"); }

double stop_bits_value(StopBits stop_bits) {
  switch (stop_bits) {
    case StopBits::One:
      return 1;
    case StopBits::OnePointFive:
      return 1.5;
    case StopBits::Two:
      return 2;
  }
  return 1;
}

std::expected<void, std::string> check(const PortSettings& s) {
  if (s.data_bits < 5 || s.data_bits > 8) return std::unexpected("data_bits: must be 5, 6, 7 or 8");
  if (s.stop_bits == StopBits::OnePointFive && s.data_bits != 5) {
    return std::unexpected("stop_bits: 1.5 stop bits are only possible with data_bits 5 on Linux (got data_bits " +
                           std::to_string(s.data_bits) + ")");
  }
  if (s.stop_bits == StopBits::Two && s.data_bits == 5) {
    return std::unexpected("stop_bits: with data_bits 5 the UART sends 1.5 stop bits, not 2; ask for 1.5");
  }
  if (s.baud == 0) return std::unexpected("baud: must be positive");
  return {};
}

std::expected<PortSettings, std::string> configure(int fd, const PortSettings& settings) {
  termios tio{};
  if (::tcgetattr(fd, &tio) != 0) return std::unexpected(os_error("not a serial port (tcgetattr)"));
  ::cfmakeraw(&tio);
  apply_framing(tio, settings);
  // termios.h only knows the standard rates; any other goes through termios2
  // after a standard placeholder (glibc refuses a speed of BOTHER here).
  const auto standard = standard_speed(settings.baud);
  ::cfsetispeed(&tio, standard.value_or(B38400));
  ::cfsetospeed(&tio, standard.value_or(B38400));
  if (::tcsetattr(fd, TCSANOW, &tio) != 0) return std::unexpected(os_error("tcsetattr"));
  if (!standard) {
    if (auto set = set_baud(fd, settings.baud); !set) return std::unexpected(set.error());
  }
  termios now{};
  if (::tcgetattr(fd, &now) != 0) return std::unexpected(os_error("tcgetattr"));
  auto baud = get_baud(fd);
  if (!baud) return std::unexpected(baud.error());
  return read_back(now, *baud);
}

}  // namespace mcpud::io
