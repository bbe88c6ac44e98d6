// SPDX-License-Identifier: MIT
// Serial and TCP streams for the bridge.
#include "link_stream.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include "mcpud/io/host_port.hpp"
#include "mcpud/io/port_open.hpp"

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

}  // namespace

Result<std::unique_ptr<LinkStream>> open_serial(asio::io_context& io, const std::string& path, std::uint32_t baud) {
  // HUPCL: closing drops DTR, so the next open resets an Arduino-style board again.
  auto port = io::open_serial_port(path, {.baud = baud, .hang_up_on_close = true});
  if (!port) return std::unexpected(port.error());
  return std::make_unique<AsioStream<asio::posix::stream_descriptor>>(
      asio::posix::stream_descriptor(io, port->fd.release()));
}

void connect_tcp(asio::io_context& io, const std::string& address, std::uint32_t timeout_ms,
                 std::function<void(Result<std::unique_ptr<LinkStream>>)> done) {
  // The configuration was checked: the address has this form.
  const auto [host, port] = io::split_host_port(address).value_or(io::HostPort{});
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
      host, std::to_string(port),
      [attempt](boost::system::error_code ec, const asio::ip::tcp::resolver::results_type& results) {
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
