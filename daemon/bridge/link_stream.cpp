// SPDX-License-Identifier: MIT
// Serial and TCP streams for the bridge.
#include "bridge/link_stream.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include "serial/port_open.hpp"
#include "transports/tty_listener.hpp"

namespace mcpud::bridge {
namespace {

namespace asio = boost::asio;

template <class Stream>
class AsioStream final : public LinkStream {
 public:
  explicit AsioStream(Stream stream) : stream_(std::move(stream)) {}
  ~AsioStream() override { close(); }

  void async_read_some(std::span<char> buffer, Handler handler) override {
    stream_.async_read_some(asio::buffer(buffer.data(), buffer.size()), std::move(handler));
  }
  void async_write(const std::string& data, Handler handler) override {
    asio::async_write(stream_, asio::buffer(data), std::move(handler));
  }
  void close() override {
    boost::system::error_code ignored;
    stream_.close(ignored);
  }

 private:
  Stream stream_;
};

Error open_failure(const std::string& path, const std::string& what) {
  return Error::domain(DomainError::OpenError, path + ": " + what + ": " + std::strerror(errno));
}

// Raw 8N1, no echo, no flow control; CLOCAL so a missing carrier does not block.
bool make_raw(int fd, speed_t speed) {
  termios tio{};
  if (::tcgetattr(fd, &tio) != 0) return false;
  ::cfmakeraw(&tio);
  tio.c_cflag |= CLOCAL | CREAD | HUPCL;
  tio.c_cflag &= ~CRTSCTS;
  ::cfsetispeed(&tio, speed);
  ::cfsetospeed(&tio, speed);
  return ::tcsetattr(fd, TCSANOW, &tio) == 0;
}

}  // namespace

Result<std::unique_ptr<LinkStream>> open_serial(asio::io_context& io, const std::string& path, std::uint32_t baud) {
  const auto speed = transports::termios_speed(baud);
  if (!speed)
    return std::unexpected(
        Error::domain(DomainError::OpenError, path + ": unsupported baud rate " + std::to_string(baud)));
  const int fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::unexpected(open_failure(path, "open"));
  if (!serial::lock_port(fd)) {
    const bool busy = errno == EWOULDBLOCK;
    auto error = busy ? Error::domain(DomainError::PortAlreadyInUse, path + ": in use by another program or component")
                      : open_failure(path, "flock");
    ::close(fd);
    return std::unexpected(error);
  }
  if (!make_raw(fd, *speed) || ::ioctl(fd, TIOCEXCL) != 0) {
    auto error = open_failure(path, "configure the serial port");
    ::close(fd);
    return std::unexpected(error);
  }
  return std::make_unique<AsioStream<asio::posix::stream_descriptor>>(asio::posix::stream_descriptor(io, fd));
}

void connect_tcp(asio::io_context& io, const std::string& address, std::uint32_t timeout_ms,
                 std::function<void(Result<std::unique_ptr<LinkStream>>)> done) {
  const auto colon = address.rfind(':');
  std::string host = address.substr(0, colon);
  const std::string port = colon == std::string::npos ? "" : address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  struct Attempt {
    asio::ip::tcp::resolver resolver;
    asio::ip::tcp::socket socket;
    asio::steady_timer timer;
    std::function<void(Result<std::unique_ptr<LinkStream>>)> done;
    std::string address;
    void finish(Result<std::unique_ptr<LinkStream>> result) {
      if (!done) return;
      timer.cancel();
      auto callback = std::move(done);
      done = nullptr;
      callback(std::move(result));
    }
    void fail(const std::string& what) {
      boost::system::error_code ignored;
      socket.close(ignored);
      finish(std::unexpected(Error::domain(DomainError::OpenError, address + ": " + what)));
    }
  };
  auto attempt = std::make_shared<Attempt>(Attempt{asio::ip::tcp::resolver(io), asio::ip::tcp::socket(io),
                                                   asio::steady_timer(io), std::move(done), address});
  attempt->timer.expires_after(std::chrono::milliseconds(timeout_ms));
  attempt->timer.async_wait([attempt](boost::system::error_code ec) {
    if (ec) return;
    attempt->resolver.cancel();
    attempt->fail("connect timed out");
  });
  attempt->resolver.async_resolve(
      host, port, [attempt](boost::system::error_code ec, asio::ip::tcp::resolver::results_type results) {
        if (ec) return attempt->fail("resolve: " + ec.message());
        asio::async_connect(
            attempt->socket, results, [attempt](boost::system::error_code ec, const asio::ip::tcp::endpoint&) {
              if (ec) return attempt->fail("connect: " + ec.message());
              attempt->socket.set_option(asio::ip::tcp::no_delay(true), ec);
              attempt->finish(std::make_unique<AsioStream<asio::ip::tcp::socket>>(std::move(attempt->socket)));
            });
      });
}

}  // namespace mcpud::bridge
