// SPDX-License-Identifier: MIT
// mcpud-tls.so: TLS for the uplinks and the listeners (Boost.Asio SSL over
// OpenSSL), loaded by tls_loader.cpp only when one is configured with TLS. Its
// sockets run on mcpud's io_context and mcpud's Asio: the compiled part and the
// per-thread state are mcpud's, exported for it (uplinks/module_exports.cmake). What it compiles
// itself (the templates, Asio's SSL part) is hidden, so nothing of it stands in
// for mcpud's.
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <expected>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <mcpud/version.hpp>

#include "tls_link.hpp"
#include "tls_relay.hpp"
#include "ws_link_impl.hpp"

namespace mcpud::uplinks {
namespace {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using asio::ip::tcp;

bool is_ip_literal(const std::string& host) {
  boost::system::error_code ec;
  asio::ip::make_address(host, ec);
  return !ec;
}

// SNI: servers with several names pick the certificate by it; it names a host,
// never an address (RFC 6066).
bool set_server_name(SSL* ssl, const std::string& host) {
  return is_ip_literal(host) || SSL_set_tlsext_host_name(ssl, host.c_str());
}

// Loads the CA bundle into `context`; an error names the file and what is wrong
// with it (OpenSSL's own text for a missing file is only "asio.ssl error").
std::expected<void, std::string> load_ca_file(ssl::context& context, const std::string& ca_file) {
  if (::access(ca_file.c_str(), R_OK) != 0) return std::unexpected(std::strerror(errno));
  boost::system::error_code ec;
  context.load_verify_file(ca_file, ec);
  if (ec) return std::unexpected("not a PEM certificate bundle (" + ec.message() + ")");
  return {};
}

class AsioTlsLink final : public TlsLink {
 public:
  AsioTlsLink(asio::io_context& io, ssl::context& context, const std::string& server_name)
      : stream_(io, context), server_name_(server_name) {}

  tcp::socket& socket() override { return stream_.next_layer(); }

  void handshake(Done done) override {
    if (!set_server_name(stream_.native_handle(), server_name_)) {
      return done(boost::system::error_code(static_cast<int>(::ERR_get_error()), asio::error::get_ssl_category()));
    }
    stream_.async_handshake(ssl::stream_base::client, std::move(done));
  }

  void read_some(asio::mutable_buffer buffer, Transferred done) override {
    stream_.async_read_some(buffer, std::move(done));
  }

  void write_some(asio::const_buffer buffer, Transferred done) override {
    stream_.async_write_some(buffer, std::move(done));
  }

 private:
  ssl::stream<tcp::socket> stream_;
  std::string server_name_;
};

class AsioTlsClient final : public TlsClient {
 public:
  // Throws std::runtime_error when the CA file cannot be loaded.
  explicit AsioTlsClient(const TlsOptions& options)
      : context_(ssl::context::tls_client), server_name_(options.server_name) {
    context_.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    if (options.ca_file.empty()) {
      boost::system::error_code ignored;  // no system store: every server fails verification, and says so
      context_.set_default_verify_paths(ignored);
    } else if (auto loaded = load_ca_file(context_, options.ca_file); !loaded) {
      throw std::runtime_error("cannot load the CA file '" + options.ca_file + "': " + loaded.error());
    }
    context_.set_verify_mode(ssl::verify_peer);
    context_.set_verify_callback(ssl::host_name_verification(options.server_name));
  }

  std::unique_ptr<TlsLink> make_link(asio::io_context& io) override {
    return std::make_unique<AsioTlsLink>(io, context_, server_name_);
  }

 private:
  ssl::context context_;
  std::string server_name_;
};

// wss://: the WebSocket over TLS over TCP, the server checked against the system
// CAs or a CA file (unless told not to) and asked for by name (SNI).
struct TlsTransport {
  using Stream = boost::beast::websocket::stream<boost::beast::ssl_stream<boost::beast::tcp_stream>>;
  using Context = std::optional<ssl::context>;

  static std::expected<void, std::string> make(asio::io_context& io, const WsOptions& options, Context& context,
                                               std::optional<Stream>& stream) {
    context.emplace(ssl::context::tls_client);
    boost::system::error_code ec;
    if (options.insecure_skip_verify) {
      context->set_verify_mode(ssl::verify_none);
    } else {
      context->set_verify_mode(ssl::verify_peer, ec);
      if (options.ca_file.empty()) {
        context->set_default_verify_paths(ec);
      } else if (auto loaded = load_ca_file(*context, options.ca_file); !loaded) {
        return std::unexpected("ca_file " + options.ca_file + ": " + loaded.error());
      }
    }
    stream.emplace(io, *context);
    return {};
  }

  template <class Done>
  static void secure(Stream& ws, const WsOptions& options, Done&& done) {
    auto& stream = ws.next_layer();
    const auto& host = options.target.host;
    set_server_name(stream.native_handle(), host);
    if (!options.insecure_skip_verify) stream.set_verify_callback(ssl::host_name_verification(host));
    stream.async_handshake(ssl::stream_base::client, std::forward<Done>(done));
  }
};

class AsioTlsModule final : public TlsModule {
 public:
  std::shared_ptr<TlsClient> make_client(const TlsOptions& options) override {
    return std::make_shared<AsioTlsClient>(options);
  }
  std::shared_ptr<MessageLink> make_ws_link(asio::io_context& io, WsOptions options) override {
    return std::make_shared<ws_detail::WsLink<TlsTransport>>(io, std::move(options));
  }
  std::shared_ptr<io::TlsServer> make_server(const io::TlsFiles& files) override { return relaying_tls_server(files); }
};

}  // namespace
}  // namespace mcpud::uplinks

extern "C" __attribute__((visibility("default"))) mcpud::uplinks::TlsModule* mcpud_tls_module_v1(
    const char* mcpud_version, std::string& error) {
  if (std::string_view(mcpud_version) != mcpud::kVersion) {
    error = std::string("the TLS module is from mcpud ") + mcpud::kVersion + ", not " + mcpud_version;
    return nullptr;
  }
  static mcpud::uplinks::AsioTlsModule module;
  return &module;
}

static_assert(std::is_same_v<decltype(&mcpud_tls_module_v1), mcpud::uplinks::TlsModuleEntry>,
              "the entry point must match what tls_loader.cpp looks up");
