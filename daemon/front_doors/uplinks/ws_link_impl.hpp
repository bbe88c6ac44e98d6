// SPDX-License-Identifier: MIT
// The WebSocket MessageLink itself: connect, TLS, upgrade, read loop, write
// queue, pings. A template on what lies below the WebSocket: mcpud instantiates
// the ws:// link (ws_link.cpp), the TLS module the wss:// one (tls_module.cpp),
// so OpenSSL is loaded only with the module. Event loop only.
#pragma once

#include <deque>
#include <expected>
#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "ws_link.hpp"

namespace mcpud::uplinks::ws_detail {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = boost::asio::ip::tcp;
using Clock = std::chrono::steady_clock;

constexpr auto kCloseGrace = std::chrono::seconds(3);  // a close handshake longer than this is cut short

// One connection attempt and, if it opens, its life. Pending operations hold a
// shared_ptr, so the link outlives its owner's reference until they complete.
// What a link's Transport adds below the WebSocket: its Stream type; a Context
// the stream borrows (the TLS set-up, or nothing); make(io, options, context,
// stream), which makes the stream or says why not; and secure(stream, options,
// done), the TLS handshake or nothing. PlainTransport is ws_link.cpp's,
// TlsTransport tls_module.cpp's: this header never includes OpenSSL's.
template <class Transport>
class WsLink final : public MessageLink, public std::enable_shared_from_this<WsLink<Transport>> {
 public:
  WsLink(boost::asio::io_context& io, WsOptions options)
      : io_(io),
        options_(std::move(options)),
        peer_(options_.target.display()),
        resolver_(io),
        deadline_(io),
        ping_timer_(io) {}

  void open(Handlers handlers) override {
    handlers_ = std::move(handlers);
    if (auto made = make_stream(); !made) return post_finish(made.error());
    arm_deadline(options_.connect_timeout, "timed out connecting");
    resolver_.async_resolve(
        options_.target.host, options_.target.port,
        [self = this->shared_from_this()](boost::system::error_code ec, tcp::resolver::results_type r) {
          self->on_resolved(ec, std::move(r));
        });
  }

  bool send(std::string text) override {
    if (closed_ || closing_) return false;
    queued_bytes_ += text.size();
    if (queued_bytes_ > options_.queue_bytes) {
      finish(std::to_string(queued_bytes_) + " bytes queued for a server that is not reading");
      return false;
    }
    queue_.push_back(std::move(text));
    if (open_ && !writing_) write_next();
    return true;
  }

  void close() override {
    if (closed_ || closing_) return;
    if (!open_) return finish("closed before it opened");
    closing_ = true;
    arm_deadline(kCloseGrace, "closed (the server did not finish the close handshake)");
    maybe_close();
  }

  const std::string& peer() const override { return peer_; }

 private:
  std::expected<void, std::string> make_stream() { return Transport::make(io_, options_, context_, ws_); }

  void on_resolved(boost::system::error_code ec, tcp::resolver::results_type results) {
    if (closed_) return;
    if (ec) return finish("cannot resolve " + options_.target.host + ": " + ec.message());
    beast::get_lowest_layer(ws()).async_connect(
        results, [self = this->shared_from_this()](boost::system::error_code ec, const tcp::endpoint&) {
          self->on_connected(ec);
        });
  }

  void on_connected(boost::system::error_code ec) {
    if (closed_) return;
    if (ec) return finish("cannot connect: " + ec.message());
    Transport::secure(ws(), options_, [self = this->shared_from_this()](boost::system::error_code ec) {
      if (self->closed_) return;
      if (ec) return self->finish("TLS handshake: " + ec.message());
      self->upgrade();
    });
  }

  void upgrade() {
    auto& stream = ws();
    beast::get_lowest_layer(stream).expires_never();  // the websocket's own timeouts from here on
    stream.set_option(websocket::stream_base::timeout{options_.connect_timeout, websocket::stream_base::none(), false});
    stream.set_option(websocket::stream_base::decorator([headers = options_.headers](websocket::request_type& request) {
      request.set(beast::http::field::user_agent, "mcpud");
      for (const auto& [name, value] : headers) request.set(name, value);
    }));
    stream.read_message_max(options_.max_message_bytes);
    stream.control_callback([this](websocket::frame_type, beast::string_view) { last_heard_ = Clock::now(); });
    std::string host =
        options_.target.host.find(':') != std::string::npos ? "[" + options_.target.host + "]" : options_.target.host;
    host += ":" + options_.target.port;
    stream.async_handshake(response_, host, options_.target.target,
                           [self = this->shared_from_this()](boost::system::error_code ec) { self->on_upgraded(ec); });
  }

  void on_upgraded(boost::system::error_code ec) {
    if (closed_) return;
    if (ec == websocket::error::upgrade_declined) {
      return finish("the server declined the WebSocket upgrade: HTTP " + std::to_string(response_.result_int()) + " " +
                    std::string(response_.reason()));
    }
    if (ec) return finish("WebSocket handshake: " + ec.message());
    deadline_.cancel();
    open_ = true;
    last_heard_ = Clock::now();
    read_next();
    schedule_ping();
    if (handlers_.on_open) handlers_.on_open();
    if (!closed_ && !writing_ && !queue_.empty()) write_next();
  }

  void read_next() {
    ws().async_read(
        buffer_, [self = this->shared_from_this()](boost::system::error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(boost::system::error_code ec) {
    if (closed_) return;
    if (ec) return finish(describe_read_error(ec));
    last_heard_ = Clock::now();
    if (ws().got_text() && handlers_.on_message) {
      auto text = beast::buffers_to_string(buffer_.data());
      buffer_.consume(buffer_.size());
      const auto on_message = handlers_.on_message;  // may close the link while it runs
      on_message(std::move(text));
    } else {
      buffer_.consume(buffer_.size());  // binary frames carry audio, which mcpud does not speak
    }
    if (!closed_) read_next();
  }

  std::string describe_read_error(boost::system::error_code ec) const {
    if (ec == websocket::error::closed) {
      const auto& reason = ws().reason();
      return "closed by the server (code " + std::to_string(reason.code) +
             (reason.reason.empty() ? std::string() : ", " + std::string(reason.reason.data(), reason.reason.size())) +
             ")";
    }
    if (ec == websocket::error::message_too_big) {
      return "a message from the server exceeded " + std::to_string(options_.max_message_bytes) + " bytes";
    }
    if (ec == beast::http::error::end_of_stream || ec == boost::asio::error::eof)
      return "connection closed by the server";
    return ec.message();
  }

  void write_next() {
    writing_ = true;
    ws().text(true);
    ws().async_write(
        boost::asio::buffer(queue_.front()),
        [self = this->shared_from_this()](boost::system::error_code ec, std::size_t) { self->on_written(ec); });
  }

  void on_written(boost::system::error_code ec) {
    writing_ = false;
    if (closed_) return;
    if (ec) return finish("write: " + ec.message());
    queued_bytes_ -= queue_.front().size();
    queue_.pop_front();
    if (!queue_.empty()) return write_next();
    maybe_close();
  }

  void schedule_ping() {
    ping_timer_.expires_after(options_.ping_interval);
    ping_timer_.async_wait([self = this->shared_from_this()](boost::system::error_code ec) {
      if (!ec) self->on_ping_due();
    });
  }

  void on_ping_due() {
    if (closed_ || closing_) return;
    const auto silent = Clock::now() - last_heard_;
    if (silent > 3 * options_.ping_interval) {
      return finish("nothing from the server (not even a pong) for " +
                    std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(silent).count()) + " ms");
    }
    if (!pinging_) {
      pinging_ = true;
      ws().async_ping({}, [self = this->shared_from_this()](boost::system::error_code ec) {
        self->pinging_ = false;
        if (self->closed_) return;
        if (ec) return self->finish("ping: " + ec.message());
        self->maybe_close();
      });
    }
    schedule_ping();
  }

  // Once closing and nothing is in flight: the close handshake, then done.
  void maybe_close() {
    if (!closing_ || close_sent_ || writing_ || pinging_ || !queue_.empty()) return;
    close_sent_ = true;
    ws().async_close(websocket::close_code::normal,
                     [self = this->shared_from_this()](boost::system::error_code) { self->finish("closed"); });
  }

  void arm_deadline(std::chrono::steady_clock::duration after, std::string why) {
    deadline_.expires_after(after);
    deadline_.async_wait([self = this->shared_from_this(), why = std::move(why)](boost::system::error_code ec) {
      if (!ec) self->finish(why);
    });
  }

  void post_finish(std::string why) {
    boost::asio::post(io_, [self = this->shared_from_this(), why = std::move(why)] { self->finish(why); });
  }

  // Ends the link once: cancels everything and tells the owner why.
  typename Transport::Stream& ws() { return ws_.value(); }
  const typename Transport::Stream& ws() const { return ws_.value(); }

  void finish(const std::string& why) {
    if (closed_) return;
    closed_ = true;
    open_ = false;
    resolver_.cancel();
    deadline_.cancel();
    ping_timer_.cancel();
    if (ws_) {
      boost::system::error_code ignored;
      beast::get_lowest_layer(*ws_).socket().close(ignored);
    }
    // Only on_closed is taken out: finish() may run inside on_message.
    auto on_closed = std::move(handlers_.on_closed);
    handlers_.on_closed = nullptr;
    if (on_closed) on_closed(why);
  }

  boost::asio::io_context& io_;
  WsOptions options_;
  std::string peer_;
  tcp::resolver resolver_;
  boost::asio::steady_timer deadline_;  // connecting, then closing
  boost::asio::steady_timer ping_timer_;
  typename Transport::Context context_;           // before ws_: the stream borrows it
  std::optional<typename Transport::Stream> ws_;  // made in open(), before any handler that uses ws()
  websocket::response_type response_;
  beast::flat_buffer buffer_;
  Handlers handlers_;
  std::deque<std::string> queue_;
  std::size_t queued_bytes_ = 0;
  Clock::time_point last_heard_ = Clock::now();
  bool open_ = false;
  bool writing_ = false;
  bool pinging_ = false;
  bool closing_ = false;
  bool close_sent_ = false;
  bool closed_ = false;
};

}  // namespace mcpud::uplinks::ws_detail
