// SPDX-License-Identifier: MIT
// The test voice-assistant backend: Beast server, one io thread, message queues.
#include "assistant/ws_backend.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <type_traits>

#include <gtest/gtest.h>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

namespace mcpud::it {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace ssl = boost::asio::ssl;
using tcp = boost::asio::ip::tcp;

// What the io thread hands to the test thread.
struct Shared {
  std::mutex mutex;
  std::condition_variable changed;
};

template <bool Tls>
using Ws = std::conditional_t<Tls, websocket::stream<beast::ssl_stream<beast::tcp_stream>>,
                              websocket::stream<beast::tcp_stream>>;

template <bool Tls>
class Connection final : public WsConnection, public std::enable_shared_from_this<Connection<Tls>> {
 public:
  using Ready = std::function<void(std::shared_ptr<WsConnection>)>;

  template <class... Args>
  Connection(Shared& shared, std::size_t reads, Args&&... args)
      : shared_(shared), reads_left_(reads), ws_(std::forward<Args>(args)...) {}

  void start(Ready ready) {
    ready_ = std::move(ready);
    if constexpr (Tls) {
      ws_.next_layer().async_handshake(ssl::stream_base::server,
                                       [self = this->shared_from_this()](beast::error_code ec) {
                                         if (!ec) self->read_request();
                                       });
    } else {
      read_request();
    }
  }

  const std::map<std::string, std::string>& headers() const override { return headers_; }
  const std::string& target() const override { return target_; }

  void send(std::string text) override {
    boost::asio::post(ws_.get_executor(), [self = this->shared_from_this(), text = std::move(text)]() mutable {
      self->outbox_.push_back(std::move(text));
      if (self->outbox_.size() == 1) self->write_next();
    });
  }

  std::optional<json> receive(Deadline deadline) override {
    std::unique_lock lock(shared_.mutex);
    if (!shared_.changed.wait_until(lock, deadline.at(), [&] { return !inbox_.empty() || closed_; }))
      return std::nullopt;
    if (inbox_.empty()) return std::nullopt;
    auto text = std::move(inbox_.front());
    inbox_.pop_front();
    auto parsed = json::parse(text, nullptr, false);
    EXPECT_FALSE(parsed.is_discarded()) << "mcpud sent a message that is not JSON: " << text;
    return parsed;
  }

  bool wait_closed(Deadline deadline) override {
    std::unique_lock lock(shared_.mutex);
    return shared_.changed.wait_until(lock, deadline.at(), [&] { return closed_; });
  }

  int pings() const override {
    std::lock_guard lock(shared_.mutex);
    return pings_;
  }

  void drop() override {
    boost::asio::post(ws_.get_executor(), [self = this->shared_from_this()] {
      beast::error_code ignored;
      beast::get_lowest_layer(self->ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
      beast::get_lowest_layer(self->ws_).socket().close(ignored);
    });
  }

 private:
  void read_request() {
    http::async_read(ws_.next_layer(), buffer_, request_,
                     [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                       if (!ec) self->accept();
                     });
  }

  void accept() {
    for (const auto& field : request_) {
      std::string name(field.name_string());
      for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      headers_[name] = std::string(field.value());
    }
    target_ = std::string(request_.target());
    ws_.control_callback([this](websocket::frame_type kind, beast::string_view) {
      if (kind != websocket::frame_type::ping) return;
      std::lock_guard lock(shared_.mutex);
      ++pings_;
    });
    ws_.async_accept(request_, [self = this->shared_from_this()](beast::error_code ec) {
      if (ec) return;
      self->read_next();
      self->ready_(self);
    });
  }

  void read_next() {
    if (reads_left_-- == 0) return;
    ws_.async_read(buffer_, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      std::lock_guard lock(self->shared_.mutex);
      if (ec) {
        self->closed_ = true;
      } else {
        self->inbox_.push_back(beast::buffers_to_string(self->buffer_.data()));
        self->buffer_.consume(self->buffer_.size());
      }
      self->shared_.changed.notify_all();
      if (!ec) self->read_next();
    });
  }

  void write_next() {
    ws_.text(true);
    ws_.async_write(boost::asio::buffer(outbox_.front()),
                    [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                      self->outbox_.pop_front();
                      if (!ec && !self->outbox_.empty()) self->write_next();
                    });
  }

  Shared& shared_;
  std::size_t reads_left_;
  Ws<Tls> ws_;
  Ready ready_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> request_;
  std::map<std::string, std::string> headers_;
  std::string target_;
  std::deque<std::string> outbox_;  // io thread only
  std::deque<std::string> inbox_;   // under shared_.mutex
  int pings_ = 0;
  bool closed_ = false;
};

}  // namespace

struct WsBackend::Impl {
  boost::asio::io_context io{1};
  tcp::acceptor acceptor{io};
  std::optional<ssl::context> tls;
  Shared shared;
  std::deque<std::shared_ptr<WsConnection>> ready;  // under shared.mutex
  std::string server_name;                          // under shared.mutex
  std::thread thread;
  int port = 0;
  std::size_t reads = SIZE_MAX;

  void accept_next() {
    acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec) return;
      auto on_ready = [this](std::shared_ptr<WsConnection> connection) {
        std::lock_guard lock(shared.mutex);
        ready.push_back(std::move(connection));
        shared.changed.notify_all();
      };
      if (tls) {
        std::make_shared<Connection<true>>(shared, reads, std::move(socket), *tls)->start(on_ready);
      } else {
        std::make_shared<Connection<false>>(shared, reads, std::move(socket))->start(on_ready);
      }
      accept_next();
    });
  }

  static int on_server_name(SSL* ssl, int*, void* arg) {
    auto* self = static_cast<Impl*>(arg);
    const char* name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
    std::lock_guard lock(self->shared.mutex);
    self->server_name = name ? name : "";
    return SSL_TLSEXT_ERR_OK;
  }
};

WsBackend::WsBackend(std::optional<TlsFiles> tls, std::size_t reads_per_connection) : impl_(std::make_unique<Impl>()) {
  impl_->reads = reads_per_connection;
  if (tls) {
    impl_->tls.emplace(ssl::context::tls_server);
    impl_->tls->use_certificate_chain_file(tls->certificate);
    impl_->tls->use_private_key_file(tls->key, ssl::context::pem);
    SSL_CTX_set_tlsext_servername_callback(impl_->tls->native_handle(), &Impl::on_server_name);
    SSL_CTX_set_tlsext_servername_arg(impl_->tls->native_handle(), impl_.get());
  }
  const tcp::endpoint loopback(boost::asio::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(loopback.protocol());
  impl_->acceptor.bind(loopback);
  impl_->acceptor.listen();
  impl_->port = impl_->acceptor.local_endpoint().port();
  impl_->accept_next();
  impl_->thread = std::thread([this] { impl_->io.run(); });
}

WsBackend::~WsBackend() {
  impl_->io.stop();
  impl_->thread.join();
}

int WsBackend::port() const { return impl_->port; }

std::shared_ptr<WsConnection> WsBackend::accept(Deadline deadline) {
  std::unique_lock lock(impl_->shared.mutex);
  if (!impl_->shared.changed.wait_until(lock, deadline.at(), [&] { return !impl_->ready.empty(); })) return nullptr;
  auto connection = std::move(impl_->ready.front());
  impl_->ready.pop_front();
  return connection;
}

std::string WsBackend::last_server_name() const {
  std::lock_guard lock(impl_->shared.mutex);
  return impl_->server_name;
}

}  // namespace mcpud::it
