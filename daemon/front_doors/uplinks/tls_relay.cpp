// SPDX-License-Identifier: MIT
// mcpud-tls.so's server side (io::TlsServer): the handshake on an accepted
// connection, then a relay between the TLS stream and a socket pair whose other
// end the door serves as a plain connection. Each direction moves one chunk at
// a time and reads again only once the other side took it, so a relay holds two
// chunks whatever either side sends, and a slow reader slows its writer.
#include "tls_relay.hpp"

#include <openssl/asn1.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <vector>

#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

namespace mcpud::uplinks {
namespace {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using asio::ip::tcp;
using Local = asio::local::stream_protocol;

// One TLS record's worth of plaintext per direction.
constexpr std::size_t kChunkBytes = 16 * 1024;
// Handshakes under way at once, over all connections of one listener: beyond
// it a connection is closed at once, so a flood of slow handshakes holds a
// bounded amount of memory. The door's own client limits count only the
// connections past the handshake.
constexpr std::size_t kMaxHandshakes = 32;
// A client that has not finished its handshake by then is dropped.
constexpr auto kHandshakeTime = std::chrono::seconds(10);
// A TLS record starts with its content type; a ClientHello is a handshake record.
constexpr unsigned char kHandshakeRecord = 0x16;

std::string readable_error(const std::string& what, const std::string& file) {
  if (::access(file.c_str(), R_OK) == 0) return {};
  return "cannot read the " + what + " file '" + file + "': " + std::strerror(errno);
}

// Only HTTP/1.1 is spoken: a client offering ALPN gets it named (a client that
// offers h2 alone is told no), a client offering none gets none.
int select_http1(SSL*, const unsigned char** out, unsigned char* out_length, const unsigned char* offered,
                 unsigned int offered_length, void*) {
  static const unsigned char kHttp1[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
  unsigned char* chosen = nullptr;
  if (SSL_select_next_proto(&chosen, out_length, kHttp1, sizeof kHttp1, offered, offered_length) !=
      OPENSSL_NPN_NEGOTIATED)
    return SSL_TLSEXT_ERR_NOACK;
  *out = chosen;
  return SSL_TLSEXT_ERR_OK;
}

// One certificate whatever name the client asks for (SNI); the name is
// acknowledged, as clients that check for it expect.
int acknowledge_server_name(SSL*, int*, void*) { return SSL_TLSEXT_ERR_OK; }

// A server context with `files` loaded and checked against each other.
std::shared_ptr<ssl::context> load_context(const io::TlsFiles& files) {
  for (const auto& [what, file] : {std::pair{"certificate", files.certificate}, std::pair{"key", files.key}}) {
    if (auto error = readable_error(what, file); !error.empty()) throw std::runtime_error(error);
  }
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                       ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
  boost::system::error_code ec;
  context->use_certificate_chain_file(files.certificate, ec);
  if (ec) throw std::runtime_error("'" + files.certificate + "' is not a PEM certificate chain (" + ec.message() + ")");
  context->use_private_key_file(files.key, ssl::context::pem, ec);
  const auto mismatch = [&] {
    return std::runtime_error("the key '" + files.key + "' does not belong to the certificate '" + files.certificate +
                              "'");
  };
  if (ec && ERR_GET_REASON(static_cast<unsigned long>(ec.value())) == X509_R_KEY_VALUES_MISMATCH) throw mismatch();
  if (ec) throw std::runtime_error("'" + files.key + "' is not a PEM private key (" + ec.message() + ")");
  if (SSL_CTX_check_private_key(context->native_handle()) != 1) throw mismatch();
  SSL_CTX_set_alpn_select_cb(context->native_handle(), select_http1, nullptr);
  SSL_CTX_set_tlsext_servername_callback(context->native_handle(), acknowledge_server_name);
  return context;
}

std::string name_entry(X509_NAME* name, int nid) {
  const int index = X509_NAME_get_index_by_NID(name, nid, -1);
  if (index < 0) return {};
  unsigned char* text = nullptr;
  const int length = ASN1_STRING_to_UTF8(&text, X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, index)));
  if (length < 0) return {};
  std::string out(reinterpret_cast<char*>(text), static_cast<std::size_t>(length));
  OPENSSL_free(text);
  return out;
}

std::string serial_text(X509* certificate) {
  BIGNUM* number = ASN1_INTEGER_to_BN(X509_get0_serialNumber(certificate), nullptr);
  char* hex = number ? BN_bn2hex(number) : nullptr;
  std::string out = hex ? hex : "?";
  OPENSSL_free(hex);
  BN_free(number);
  return out;
}

std::string expiry_text(X509* certificate) {
  std::tm expiry{};
  if (ASN1_TIME_to_tm(X509_get0_notAfter(certificate), &expiry) != 1) return "an unreadable date";
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &expiry);
  return date;
}

std::string describe(ssl::context& context) {
  X509* certificate = SSL_CTX_get0_certificate(context.native_handle());
  if (!certificate) return "no certificate";
  const bool expired = X509_cmp_current_time(X509_get0_notAfter(certificate)) < 0;
  return "CN=" + name_entry(X509_get_subject_name(certificate), NID_commonName) + ", serial " +
         serial_text(certificate) + (expired ? ", EXPIRED on " : ", expires ") + expiry_text(certificate);
}

// Handshakes under way, shared by a server and the relays it started (which
// may outlive it).
struct HandshakeCount {
  std::size_t under_way = 0;
};

class TlsRelay : public std::enable_shared_from_this<TlsRelay> {
 public:
  TlsRelay(tcp::socket socket, std::shared_ptr<ssl::context> context, std::shared_ptr<HandshakeCount> count)
      : context_(std::move(context)),
        stream_(std::move(socket), *context_),
        inner_(stream_.get_executor()),
        deadline_(stream_.get_executor()),
        count_(std::move(count)) {
    ++count_->under_way;
  }
  ~TlsRelay() { end_handshake(); }

  void start(io::TlsServer::Accepted done) {
    done_ = std::move(done);
    boost::system::error_code ignored;
    client().set_option(tcp::no_delay(true), ignored);
    deadline_.expires_after(kHandshakeTime);
    deadline_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (ec || self->phase_ != Phase::handshaking) return;
      self->timed_out_ = true;
      boost::system::error_code ignored;
      self->client().close(ignored);  // ends the wait or the handshake, which report it
    });
    client().async_wait(tcp::socket::wait_read, [self = shared_from_this()](boost::system::error_code ec) {
      if (ec) return self->fail(ec);
      self->on_first_bytes();
    });
  }

 private:
  enum class Phase { handshaking, relaying, shutting_down, closed };

  tcp::socket& client() { return stream_.next_layer(); }

  void on_first_bytes() {
    unsigned char first = 0;
    const auto got = ::recv(client().native_handle(), &first, 1, MSG_PEEK);
    if (got <= 0)
      return fail(got == 0 ? asio::error::eof : boost::system::error_code(errno, asio::error::get_system_category()));
    if (first != kHandshakeRecord) return report({io::TlsAccepted::Outcome::not_tls, std::move(client()), {}});
    stream_.async_handshake(ssl::stream_base::server, [self = shared_from_this()](boost::system::error_code ec) {
      if (ec) return self->fail(ec);
      self->on_secured();
    });
  }

  void on_secured() {
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, pair) != 0)
      return fail(boost::system::error_code(errno, asio::error::get_system_category()));
    boost::system::error_code ec;
    inner_.assign(Local(), pair[0], ec);
    if (ec) ::close(pair[0]);
    // A tcp::socket over the pair: the door reads, writes and waits on it as on
    // any connection; it asks the socket nothing TCP alone answers.
    tcp::socket door(stream_.get_executor());
    if (!ec) door.assign(tcp::v4(), pair[1], ec);
    if (ec) {
      if (!door.is_open()) ::close(pair[1]);
      return fail(ec);
    }
    from_client_.resize(kChunkBytes);
    to_client_.resize(kChunkBytes);
    phase_ = Phase::relaying;
    report({io::TlsAccepted::Outcome::secured, std::move(door), {}});
    pump_from_client();
    pump_to_client();
  }

  void fail(boost::system::error_code ec) {
    std::string why = timed_out_ ? "no TLS handshake within " + std::to_string(kHandshakeTime.count()) + " s"
                                 : "TLS handshake failed: " + ec.message();
    boost::system::error_code ignored;
    client().close(ignored);
    report({io::TlsAccepted::Outcome::failed, std::move(client()), std::move(why)});
  }

  void report(io::TlsAccepted accepted) {
    end_handshake();
    if (accepted.outcome != io::TlsAccepted::Outcome::secured) phase_ = Phase::closed;
    if (auto done = std::move(done_)) done(std::move(accepted));
  }

  void end_handshake() {
    if (counted_) --count_->under_way;
    counted_ = false;
    deadline_.cancel();
  }

  // Client to door: what the client sends, decrypted. Its end (close_notify,
  // or a connection just closed) is passed on as the door's end of file.
  void pump_from_client() {
    reading_client_ = true;
    stream_.async_read_some(asio::buffer(from_client_),
                            [self = shared_from_this()](boost::system::error_code ec, std::size_t length) {
                              self->reading_client_ = false;
                              if (ec) return self->client_ended(ec);
                              asio::async_write(self->inner_, asio::buffer(self->from_client_.data(), length),
                                                [self](boost::system::error_code write_error, std::size_t) {
                                                  // The door has closed: pump_to_client() sees its end of file.
                                                  if (write_error || self->phase_ != Phase::relaying) return;
                                                  self->pump_from_client();
                                                });
                            });
  }

  // Door to client: what the door writes, encrypted. The door closing its end
  // closes the connection, with a close_notify.
  void pump_to_client() {
    inner_.async_read_some(asio::buffer(to_client_),
                           [self = shared_from_this()](boost::system::error_code ec, std::size_t length) {
                             if (ec) return self->door_ended();
                             asio::async_write(self->stream_, asio::buffer(self->to_client_.data(), length),
                                               [self](boost::system::error_code write_error, std::size_t) {
                                                 if (write_error) return self->close();  // the client has gone
                                                 self->pump_to_client();
                                               });
                           });
  }

  void client_ended(boost::system::error_code ec) {
    if (phase_ == Phase::shutting_down) return send_close_notify();  // the read door_ended() cancelled
    if (phase_ != Phase::relaying) return;
    client_gone_ = ec != asio::error::eof;  // eof: a close_notify, answered with one when the door is done
    boost::system::error_code ignored;
    inner_.shutdown(asio::socket_base::shutdown_send, ignored);  // the door reads its end of file
  }

  void door_ended() {
    if (phase_ != Phase::relaying) return;
    if (client_gone_) return close();
    phase_ = Phase::shutting_down;
    if (!reading_client_) return send_close_notify();
    boost::system::error_code ignored;
    client().cancel(ignored);  // the read ends in client_ended(), which goes on
  }

  // Our close_notify alone, without waiting for the client's: marked as
  // received, OpenSSL's shutdown sends ours and is complete once it is written.
  void send_close_notify() {
    SSL_set_shutdown(stream_.native_handle(), SSL_RECEIVED_SHUTDOWN);
    stream_.async_shutdown([self = shared_from_this()](boost::system::error_code) { self->close(); });
  }

  void close() {
    if (phase_ == Phase::closed) return;
    phase_ = Phase::closed;
    boost::system::error_code ignored;
    inner_.close(ignored);
    client().close(ignored);
  }

  std::shared_ptr<ssl::context> context_;  // the pair it began with, should the server reload another
  ssl::stream<tcp::socket> stream_;
  Local::socket inner_;
  asio::steady_timer deadline_;
  std::shared_ptr<HandshakeCount> count_;
  bool counted_ = true;
  io::TlsServer::Accepted done_;
  Phase phase_ = Phase::handshaking;
  bool timed_out_ = false;
  bool client_gone_ = false;  // the connection broke: nothing more can be sent to it
  bool reading_client_ = false;
  std::vector<char> from_client_;
  std::vector<char> to_client_;
};

class AsioTlsServer final : public io::TlsServer {
 public:
  explicit AsioTlsServer(io::TlsFiles files) : files_(std::move(files)), context_(load_context(files_)) {}

  void accept(tcp::socket socket, Accepted done) override {
    if (count_->under_way >= kMaxHandshakes) {
      boost::system::error_code ignored;
      socket.close(ignored);
      return done({io::TlsAccepted::Outcome::failed, std::move(socket),
                   std::to_string(kMaxHandshakes) + " TLS handshakes are under way"});
    }
    std::make_shared<TlsRelay>(std::move(socket), context_, count_)->start(std::move(done));
  }

  std::expected<void, std::string> reload() override {
    try {
      context_ = load_context(files_);
    } catch (const std::runtime_error& e) {
      return std::unexpected(e.what());
    }
    return {};
  }

  const io::TlsFiles& files() const override { return files_; }
  std::string certificate_summary() const override { return describe(*context_); }

 private:
  io::TlsFiles files_;
  std::shared_ptr<ssl::context> context_;
  std::shared_ptr<HandshakeCount> count_ = std::make_shared<HandshakeCount>();
};

}  // namespace

std::shared_ptr<io::TlsServer> relaying_tls_server(const io::TlsFiles& files) {
  return std::make_shared<AsioTlsServer>(files);
}

}  // namespace mcpud::uplinks
