// SPDX-License-Identifier: MIT
// mqtt::Client: libmosquitto's non-threaded interface driven by Asio.
#include "mcpud/mqtt/client.hpp"

#include <poll.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "mcpud/core/log.hpp"
#include "mcpud/io/redial.hpp"
#include "mosquitto_handle.hpp"
#include "outbox.hpp"

namespace mcpud::mqtt {

namespace asio = boost::asio;
using boost::system::error_code;

namespace {

constexpr const char* kSystemCaPath = "/etc/ssl/certs";  // Debian's ca-certificates

bool socket_ready(int fd, short events) {
  pollfd p{fd, events, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & (events | POLLERR | POLLHUP)) != 0;
}

void check(int rc, const char* what) {
  if (rc != MOSQ_ERR_SUCCESS) throw std::runtime_error(std::string("mqtt: ") + what + ": " + describe(rc));
}

}  // namespace

class Client::Session : public std::enable_shared_from_this<Session> {
 public:
  Session(asio::io_context& io, Options options)
      : io_(io),
        options_(std::move(options)),
        handle_(make_handle(options_.client_id, this)),
        misc_timer_(io),
        resolver_(io),
        redial_(io, options_.retry_first, options_.retry_ceiling),
        outbox_(options_.max_queued) {
    configure();
  }

  void start() {
    stopping_ = false;
    connect();
  }

  std::expected<void, std::string> publish(Message message) {
    if (!connected_) {
      if (!outbox_.push(std::move(message), in_flight_.size()))
        return std::unexpected("mqtt: outgoing queue full (" + std::to_string(options_.max_queued) + " messages)");
      return {};
    }
    // A socket the broker drains slower than we publish: QoS 0 messages may
    // fill only half of the bound, so replies (QoS 1) still find room.
    const std::size_t limit = message.qos == 0 ? options_.max_queued / 2 : options_.max_queued;
    if (in_flight_.size() >= limit) {
      ++saturated_drops_;
      return std::unexpected("mqtt: outgoing queue full (" + std::to_string(in_flight_.size()) +
                             " messages not yet sent or acknowledged)");
    }
    auto sent = send(message);
    after_library_call();
    return sent;
  }

  std::expected<void, std::string> subscribe(const std::string& filter, int qos) {
    subscriptions_[filter] = qos;
    if (!connected_) return {};
    const int rc = mosquitto_subscribe(handle_.get(), nullptr, filter.c_str(), qos);
    after_library_call();
    if (rc != MOSQ_ERR_SUCCESS) return std::unexpected("mqtt: subscribe " + filter + ": " + describe(rc));
    return {};
  }

  void stop() {
    if (stopping_) return;
    stopping_ = true;
    redial_.cancel();
    misc_timer_.cancel();
    resolver_.cancel();
    if (fd_ < 0) return;
    if (connected_ && awaiting_ack()) {
      // Messages published just before (a last status) are acknowledged first:
      // a DISCONNECT ahead of the broker's PUBACK makes it report a failure.
      draining_ = true;
      misc_timer_.expires_after(std::chrono::seconds(1));
      misc_timer_.async_wait([self = shared_from_this()](error_code ec) {
        if (!ec && self->draining_) self->disconnect_now();
      });
      return;
    }
    disconnect_now();
  }

  bool connected() const { return connected_; }
  std::optional<std::int64_t> next_attempt_ms() const {
    return connected_ || stopping_ ? std::nullopt : redial_.next_attempt_unix_ms();
  }
  std::uint64_t dropped() const { return outbox_.dropped() + saturated_drops_; }

  ConnectHandler on_connect_;
  DisconnectHandler on_disconnect_;
  MessageHandler on_message_;

 private:
  void configure() {
    auto* h = handle_.get();
    const int version = options_.version == ProtocolVersion::v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311;
    check(mosquitto_int_option(h, MOSQ_OPT_PROTOCOL_VERSION, version), "protocol version");
    check(mosquitto_int_option(h, MOSQ_OPT_TCP_NODELAY, 1), "TCP_NODELAY");
    if (!options_.username.empty())
      check(mosquitto_username_pw_set(h, options_.username.c_str(),
                                      options_.password.empty() ? nullptr : options_.password.c_str()),
            "username");
    if (options_.will) {
      const auto& w = *options_.will;
      check(
          mosquitto_will_set(h, w.topic.c_str(), static_cast<int>(w.payload.size()), w.payload.data(), w.qos, w.retain),
          "will");
    }
    if (options_.tls) configure_tls(*options_.tls);
    mosquitto_connect_v5_callback_set(h, [](mosquitto*, void* self, int rc, int, const mosquitto_property*) {
      static_cast<Session*>(self)->connected(rc);
    });
    mosquitto_disconnect_v5_callback_set(h, [](mosquitto*, void* self, int rc, const mosquitto_property*) {
      static_cast<Session*>(self)->disconnected(rc);
    });
    mosquitto_message_v5_callback_set(
        h, [](mosquitto*, void* self, const mosquitto_message* m, const mosquitto_property* properties) {
          static_cast<Session*>(self)->received(*m, properties);
        });
    mosquitto_publish_v5_callback_set(h, [](mosquitto*, void* self, int mid, int, const mosquitto_property*) {
      static_cast<Session*>(self)->published(mid);
    });
  }

  void configure_tls(const TlsOptions& tls) {
    auto* h = handle_.get();
    auto text = [](const std::string& s) { return s.empty() ? nullptr : s.c_str(); };
    // libmosquitto 2.0.11 wants a CA file or directory even with the OS store
    // option: name the system's hashed certificate directory.
    const bool system_store = tls.ca_file.empty() && tls.ca_path.empty();
    if (system_store) check(mosquitto_int_option(h, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "tls system CA store");
    const std::string ca_path = system_store ? std::string(kSystemCaPath) : tls.ca_path;
    check(mosquitto_tls_set(h, text(tls.ca_file), text(ca_path), text(tls.cert_file), text(tls.key_file), nullptr),
          "tls");
    if (tls.insecure_skip_verify) {
      check(mosquitto_tls_insecure_set(h, true), "tls insecure");
      check(mosquitto_tls_opts_set(h, 0 /* SSL_VERIFY_NONE */, nullptr, nullptr), "tls verify none");
    }
  }

  // ---- connection life cycle ------------------------------------------------

  // A host name is resolved here, off the event loop (libmosquitto would block
  // it in getaddrinfo): without TLS the address is handed over; with TLS the
  // library needs the name for the certificate check, and looks it up again
  // only once it is known to resolve. Successive attempts rotate through the
  // addresses (::1 then 127.0.0.1 for "localhost").
  void connect() {
    drop_descriptor();
    attempt_failed_ = false;
    error_code not_literal;
    asio::ip::make_address(options_.host, not_literal);
    if (!not_literal) return connect_to(options_.host);
    resolver_.async_resolve(options_.host, std::to_string(options_.port),
                            [self = shared_from_this()](error_code ec, asio::ip::tcp::resolver::results_type found) {
                              if (self->stopping_ || ec == asio::error::operation_aborted) return;
                              if (ec || found.empty())
                                return self->failed("cannot resolve " + self->options_.host + ": " + ec.message());
                              if (self->options_.tls) return self->connect_to(self->options_.host);
                              auto entry = found.begin();
                              std::advance(entry, self->failures_ % static_cast<int>(found.size()));
                              self->connect_to(entry->endpoint().address().to_string());
                            });
  }

  void connect_to(const std::string& address) {
    drop_descriptor();  // the library closes the old socket and may reuse its number
    const int keepalive = static_cast<int>(options_.keepalive.count());
    const int rc = mosquitto_connect_bind_async(handle_.get(), address.c_str(), options_.port, keepalive, nullptr);
    if (rc != MOSQ_ERR_SUCCESS) return failed(describe(rc));
    connecting_since_ = std::chrono::steady_clock::now();
    after_library_call();
    arm_misc_timer();
  }

  void connected(int rc) {
    if (rc != 0) {
      // The broker refused (bad credentials, not authorised): it closes the
      // socket next, and disconnected() schedules the retry.
      refusal_ = options_.version == ProtocolVersion::v5 ? mosquitto_reason_string(rc) : mosquitto_connack_string(rc);
      return;
    }
    connected_ = true;
    refusal_.clear();
    if (failures_ > 0)
      log::info(options_.log_category, "connected to ", where(), " again");
    else
      log::info(options_.log_category, "connected to ", where());
    failures_ = 0;
    redial_.connected();
    for (const auto& [filter, qos] : subscriptions_) mosquitto_subscribe(handle_.get(), nullptr, filter.c_str(), qos);
    for (auto& message : outbox_.take_all()) (void)send(message);
    if (on_connect_) guarded("connect", [&] { on_connect_(); });
  }

  void disconnected(int rc) {
    const bool was_connected = std::exchange(connected_, false);
    draining_ = false;
    // QoS 0 messages not yet written are gone with the socket; QoS 1/2 ones stay
    // with the library, which sends them again on the next connection.
    std::erase_if(in_flight_, [](const auto& entry) { return entry.second == 0; });
    if (stopping_) return;
    std::string reason = !refusal_.empty() ? "refused: " + refusal_ : describe(rc);
    if (was_connected) log::info(options_.log_category, "lost ", where(), ": ", reason);
    asio::post(io_, [self = shared_from_this(), reason, was_connected] { self->failed(reason, was_connected); });
  }

  // `lost`: the failure was the loss of a working connection (already logged).
  void failed(const std::string& reason, bool lost = false) {
    drop_descriptor();
    if (stopping_ || std::exchange(attempt_failed_, true)) return;  // once per attempt
    if (on_disconnect_) guarded("disconnect", [&] { on_disconnect_(reason); });
    if (stopping_) return;  // the handler stopped the client
    ++failures_;
    const auto delay = redial_.later([self = shared_from_this()] {
      if (!self->stopping_) self->connect();
    });
    if (lost)
      log::debug(options_.log_category, "reconnecting to ", where(), " in ", delay.count(), " ms");
    else if (failures_ == 1)
      log::info(options_.log_category, "cannot connect to ", where(), ": ", reason, " (retrying)");
    else
      log::debug(options_.log_category, "cannot connect to ", where(), ": ", reason, " (retry in ", delay.count(),
                 " ms)");
  }

  std::string where() const { return options_.host + ":" + std::to_string(options_.port); }

  // ---- the socket -------------------------------------------------------------

  // After every call into the library: follow its socket and what it wants to write.
  void after_library_call() {
    const int fd = mosquitto_socket(handle_.get());
    if (fd != fd_) {
      // Some failures (a TLS handshake refused) close the socket without the
      // disconnect callback: notice it here, or no retry would follow.
      const bool vanished = fd < 0 && fd_ >= 0;
      drop_descriptor();
      if (fd >= 0) {
        descriptor_.emplace(io_, fd);
        fd_ = fd;
      }
      if (vanished && !stopping_)
        asio::post(io_, [self = shared_from_this(), reason = describe(last_rc_)] { self->failed(reason); });
    }
    if (!descriptor_) return;
    if (!reading_) wait_readable();
    if (!writing_ && !write_stalled_ && mosquitto_want_write(handle_.get())) {
      writing_ = true;
      asio::post(io_, [self = shared_from_this(), gen = generation_] { self->writable(gen); });
    }
  }

  void drop_descriptor() {
    if (!descriptor_) return;
    error_code ignored;
    descriptor_->cancel(ignored);
    descriptor_->release();  // the library owns the fd and closes it
    descriptor_.reset();
    fd_ = -1;
    reading_ = writing_ = write_stalled_ = false;
    ++generation_;
  }

  void wait_readable() {
    reading_ = true;
    descriptor_->async_wait(asio::posix::descriptor_base::wait_read,
                            [self = shared_from_this(), gen = generation_](error_code ec) {
                              if (gen != self->generation_ || ec) return;
                              self->reading_ = false;
                              self->readable();
                            });
  }

  void readable() {
    write_stalled_ = false;
    // Asio's epoll is edge-triggered: read until the socket is drained, a
    // bounded number of packets per turn so other clients get theirs.
    for (int round = 0; round < 64; ++round) {
      last_rc_ = mosquitto_loop_read(handle_.get(), 1);
      if (last_rc_ != MOSQ_ERR_SUCCESS) break;
      const int fd = mosquitto_socket(handle_.get());
      if (fd < 0 || fd != fd_ || !socket_ready(fd, POLLIN)) break;
      if (round == 63) {
        reading_ = true;
        asio::post(io_, [self = shared_from_this(), gen = generation_] {
          if (gen != self->generation_) return;
          self->reading_ = false;
          self->readable();
        });
      }
    }
    after_library_call();
  }

  void writable(std::uint64_t gen) {
    if (gen != generation_) return;
    writing_ = false;
    // A write that hit a full socket leaves the socket flagged, and its next
    // edge wakes the wait below. The socket may drain between that write and
    // the check: then write again at once (a few times) rather than wait.
    bool stalled = false;
    for (int attempt = 0; attempt < 4; ++attempt) {
      last_rc_ = mosquitto_loop_write(handle_.get(), 1);
      const int fd = mosquitto_socket(handle_.get());
      if (fd < 0 || fd != fd_ || !mosquitto_want_write(handle_.get())) break;
      if (!socket_ready(fd, POLLOUT)) {
        writing_ = true;
        descriptor_->async_wait(asio::posix::descriptor_base::wait_write,
                                [self = shared_from_this(), gen = generation_](error_code ec) {
                                  if (!ec) self->writable(gen);
                                });
        return;
      }
      stalled = true;
    }
    // Writable yet still wanting to write: the library waits for input first
    // (a TLS handshake); the next read (at worst the keepalive's ping) lets it
    // try again.
    write_stalled_ = stalled && mosquitto_socket(handle_.get()) == fd_ && mosquitto_want_write(handle_.get());
    after_library_call();
  }

  // ---- keepalive ------------------------------------------------------------

  void arm_misc_timer() {
    misc_timer_.expires_after(std::max<std::chrono::milliseconds>(options_.keepalive / 2, std::chrono::seconds(1)));
    misc_timer_.async_wait([self = shared_from_this()](error_code ec) {
      if (ec || self->stopping_) return;
      self->housekeeping();
    });
  }

  void housekeeping() {
    if (mosquitto_socket(handle_.get()) < 0) return;  // a retry is scheduled
    if (!connected_ && std::chrono::steady_clock::now() - connecting_since_ > options_.keepalive) {
      // A broker that never answers the connection attempt: try again.
      return failed("no answer within the keepalive (" + std::to_string(options_.keepalive.count()) + " s)");
    }
    mosquitto_loop_misc(handle_.get());
    write_stalled_ = false;
    after_library_call();
    if (mosquitto_socket(handle_.get()) >= 0) arm_misc_timer();
  }

  // ---- messages ---------------------------------------------------------------

  std::expected<void, std::string> send(const Message& m) {
    Properties properties;
    if (options_.version == ProtocolVersion::v5) {
      if (!m.response_topic.empty()) properties.add_response_topic(m.response_topic);
      if (!m.correlation_data.empty()) properties.add_correlation_data(m.correlation_data);
    }
    int mid = 0;
    sending_ = true;
    const int rc = mosquitto_publish_v5(handle_.get(), &mid, m.topic.c_str(), static_cast<int>(m.payload.size()),
                                        m.payload.data(), m.qos, m.retain, properties.get());
    sending_ = false;
    const bool done_already = std::exchange(completed_while_sending_, -1) == mid;
    if (rc != MOSQ_ERR_SUCCESS) return std::unexpected("mqtt: publish to " + m.topic + ": " + describe(rc));
    if (!done_already) in_flight_[mid] = m.qos;
    return {};
  }

  void published(int mid) {
    // Outside a callback the library writes a QoS 0 message inside the publish
    // call itself, before its id is known here.
    if (in_flight_.erase(mid) == 0 && sending_) completed_while_sending_ = mid;
    if (draining_ && !awaiting_ack()) disconnect_now();
  }

  bool awaiting_ack() const {
    return std::any_of(in_flight_.begin(), in_flight_.end(), [](const auto& entry) { return entry.second > 0; });
  }

  // DISCONNECT (the broker then drops the will); the socket closes once it is written.
  void disconnect_now() {
    draining_ = false;
    misc_timer_.cancel();
    mosquitto_disconnect(handle_.get());
    after_library_call();
    // What the socket did not take yet goes out as it drains; a broker that
    // stopped reading gets a second to take it before the socket is closed.
    if (fd_ >= 0) {
      misc_timer_.expires_after(std::chrono::seconds(1));
      misc_timer_.async_wait([self = shared_from_this()](error_code ec) {
        if (!ec) self->drop_descriptor();  // the socket closes with the handle
      });
    }
  }

  void received(const mosquitto_message& raw, const mosquitto_property* properties) {
    if (!on_message_) return;
    Message m;
    m.topic = raw.topic ? raw.topic : "";
    m.payload.assign(static_cast<const char*>(raw.payload), static_cast<std::size_t>(raw.payloadlen));
    m.qos = raw.qos;
    m.retain = raw.retain;
    if (properties) {
      m.response_topic = read_response_topic(properties);
      m.correlation_data = read_correlation_data(properties);
    }
    guarded("message", [&] { on_message_(m); });
  }

  // Handlers run inside libmosquitto's C callbacks: nothing may unwind through them.
  template <class Body>
  void guarded(const char* what, Body&& body) {
    try {
      body();
    } catch (const std::exception& e) {
      log::error(options_.log_category, "the ", what, " handler failed: ", e.what());
    }
  }

  asio::io_context& io_;
  Options options_;
  Handle handle_;
  std::optional<asio::posix::stream_descriptor> descriptor_;
  int fd_ = -1;
  std::uint64_t generation_ = 0;  // bumped when the socket changes; older waits ignore their completion
  bool reading_ = false;
  bool writing_ = false;
  bool write_stalled_ = false;
  int last_rc_ = MOSQ_ERR_SUCCESS;  // of the last read or write, for a socket closed without a callback
  bool attempt_failed_ = false;     // this connection attempt's failure is handled (retry scheduled)
  bool draining_ = false;           // stop() waits for the acknowledgements of QoS 1/2 messages
  std::uint64_t saturated_drops_ = 0;
  asio::steady_timer misc_timer_;
  asio::ip::tcp::resolver resolver_;
  io::Redial redial_;
  Outbox outbox_;
  std::map<int, int> in_flight_;  // message id -> QoS, until written (QoS 0) or acknowledged
  bool sending_ = false;
  int completed_while_sending_ = -1;
  std::map<std::string, int> subscriptions_;
  bool connected_ = false;
  bool stopping_ = true;
  int failures_ = 0;
  std::string refusal_;
  std::chrono::steady_clock::time_point connecting_since_;
};

Client::Client(asio::io_context& io, Options options) : session_(std::make_shared<Session>(io, std::move(options))) {}
Client::~Client() { session_->stop(); }

void Client::on_connect(ConnectHandler handler) { session_->on_connect_ = std::move(handler); }
void Client::on_disconnect(DisconnectHandler handler) { session_->on_disconnect_ = std::move(handler); }
void Client::on_message(MessageHandler handler) { session_->on_message_ = std::move(handler); }
void Client::start() { session_->start(); }
std::expected<void, std::string> Client::publish(Message message) { return session_->publish(std::move(message)); }
std::expected<void, std::string> Client::subscribe(const std::string& filter, int qos) {
  return session_->subscribe(filter, qos);
}
void Client::stop() { session_->stop(); }
bool Client::connected() const { return session_->connected(); }
std::optional<std::int64_t> Client::next_attempt_ms() const { return session_->next_attempt_ms(); }
std::uint64_t Client::dropped() const { return session_->dropped(); }

}  // namespace mcpud::mqtt
