// SPDX-License-Identifier: MIT
// Opening a tty in raw mode, serving it, and reopening it after it vanishes.
#include "transports/tty_listener.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

#include <boost/asio/posix/stream_descriptor.hpp>

#include "serial/port_open.hpp"
#include "mcpud/core/log.hpp"
#include "transports/line_session.hpp"

namespace mcpud::transports {
namespace {

constexpr auto kRetryInterval = std::chrono::seconds(1);

constexpr std::array<std::pair<std::uint32_t, speed_t>, 20> kSpeeds{{
    {1200, B1200},       {2400, B2400},       {4800, B4800},       {9600, B9600},       {19200, B19200},
    {38400, B38400},     {57600, B57600},     {115200, B115200},   {230400, B230400},   {460800, B460800},
    {500000, B500000},   {576000, B576000},   {921600, B921600},   {1000000, B1000000}, {1152000, B1152000},
    {1500000, B1500000}, {2000000, B2000000}, {2500000, B2500000}, {3000000, B3000000}, {4000000, B4000000},
}};

}  // namespace

std::optional<unsigned> termios_speed(std::uint32_t baud) {
  for (const auto& [rate, speed] : kSpeeds) {
    if (rate == baud) return speed;
  }
  return std::nullopt;
}

namespace {

std::string errno_text(const std::string& what) { return what + ": " + std::strerror(errno); }

}  // namespace

bool supported_baud(std::uint32_t baud) { return termios_speed(baud).has_value(); }

TtyListener::TtyListener(boost::asio::io_context& io, std::string path, std::uint32_t baud, rpc::Engine& engine,
                         SessionSet& sessions, const SessionLimits& limits)
    : io_(io), path_(std::move(path)), baud_(baud), engine_(engine), sessions_(sessions), limits_(limits), retry_timer_(io) {}

TtyListener::~TtyListener() {
  *alive_ = false;
  close();
}

void TtyListener::start() { try_open(); }

void TtyListener::close() {
  closed_ = true;
  retry_timer_.cancel();
  if (auto session = session_.lock()) session->close();
}

// Raw 8N1, no echo, no flow control, exclusive: the port carries only frames.
std::expected<int, std::string> TtyListener::open_port() const {
  const auto speed = termios_speed(baud_);
  if (!speed) return std::unexpected("unsupported baud rate " + std::to_string(baud_));
  const int fd = ::open(path_.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::unexpected(errno_text("open"));
  // The same lock the serial tools and MCU bridges take: one owner per port.
  if (!serial::lock_port(fd)) {
    const auto error = errno == EWOULDBLOCK ? std::string("in use (locked by another program or mcpud component)")
                                            : errno_text("flock");
    ::close(fd);
    return std::unexpected(error);
  }
  termios tio{};
  if (::tcgetattr(fd, &tio) != 0) {
    const auto error = errno_text("not a tty");
    ::close(fd);
    return std::unexpected(error);
  }
  ::cfmakeraw(&tio);
  tio.c_cflag |= CLOCAL | CREAD;
  tio.c_cflag &= ~CRTSCTS;
  ::cfsetispeed(&tio, *speed);
  ::cfsetospeed(&tio, *speed);
  if (::tcsetattr(fd, TCSANOW, &tio) != 0 || ::ioctl(fd, TIOCEXCL) != 0) {
    const auto error = errno_text("configure");
    ::close(fd);
    return std::unexpected(error);
  }
  ::tcflush(fd, TCIOFLUSH);  // drop whatever arrived before we served the port
  return fd;
}

void TtyListener::try_open() {
  if (closed_) return;
  auto fd = open_port();
  if (!fd) {
    if (fd.error() != last_error_) log::warn("tty", path_, ": ", fd.error(), "; retrying every second");
    last_error_ = fd.error();
    retry_later();
    return;
  }
  last_error_.clear();
  boost::asio::posix::stream_descriptor stream(io_, *fd);
  auto session = std::make_shared<LineSession<boost::asio::posix::stream_descriptor>>(
      std::move(stream), engine_, limits_, path_, "tty", [this, alive = alive_, &sessions = sessions_](Session& s) {
        sessions.remove(&s);
        if (!*alive || closed_) return;
        log::warn("tty", path_, ": closed (device gone?); waiting for it to come back");
        retry_later();
      });
  session_ = session;
  sessions_.add(session);
  log::info("tty", "serving MCP/U on ", path_, " at ", baud_, " baud");
  session->start();
}

void TtyListener::retry_later() {
  retry_timer_.expires_after(kRetryInterval);
  retry_timer_.async_wait([this, alive = alive_](boost::system::error_code ec) {
    if (!ec && *alive) try_open();
  });
}

}  // namespace mcpud::transports
