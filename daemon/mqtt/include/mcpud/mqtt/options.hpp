// SPDX-License-Identifier: MIT
// What an mqtt::Client connects to and how: broker, protocol version, session
// settings, credentials, TLS, last will, reconnect pacing and queue bounds; and
// the message type it publishes and delivers.
// Plain data and functions without state; any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace mcpud::mqtt {

enum class ProtocolVersion { v311, v5 };

struct TlsOptions {
  std::string ca_file;    // empty (and no ca_path): the system CA store (/etc/ssl/certs)
  std::string ca_path;    // a directory of hashed CA certificates
  std::string cert_file;  // client certificate, for brokers that authenticate clients by certificate
  std::string key_file;   // its private key (unencrypted)
  // Accepts any server certificate and name. Only for a broker on a trusted
  // network whose self-signed certificate cannot be distributed: the link is
  // encrypted but anyone on the path can impersonate the broker.
  bool insecure_skip_verify = false;
  bool operator==(const TlsOptions&) const = default;
};

struct WillOptions {
  std::string topic;
  std::string payload;
  int qos = 1;
  bool retain = true;
  bool operator==(const WillOptions&) const = default;
};

struct Options {
  std::string host = "127.0.0.1";
  std::uint16_t port = 1883;
  std::string client_id;  // empty: the library makes one up
  ProtocolVersion version = ProtocolVersion::v5;
  std::chrono::seconds keepalive{30};  // at least 5 s (the library's minimum)
  std::string username;                // empty: none
  std::string password;
  std::optional<TlsOptions> tls;
  std::optional<WillOptions> will;
  std::chrono::milliseconds retry_first{250};
  std::chrono::milliseconds retry_ceiling{30000};
  // Messages held while disconnected plus messages handed to the library and not
  // yet written (QoS 0) or acknowledged (QoS 1/2). Disconnected, past it a QoS 0
  // message pushes out the oldest queued QoS 0 message and QoS 1/2 messages are
  // refused. Connected, QoS 0 messages may fill only half of it (more are
  // refused: a saturated link drops the newest events) so QoS 1/2 messages
  // still find room; past the whole of it they are refused too.
  std::size_t max_queued = 1024;
  std::string log_category = "mqtt";  // e.g. "fleet"
  bool operator==(const Options&) const = default;
};

// One application message, in or out. The MQTT 5 fields are empty under 3.1.1.
struct Message {
  std::string topic;
  std::string payload;
  int qos = 0;
  bool retain = false;
  std::string response_topic;    // MQTT 5 Response Topic
  std::string correlation_data;  // MQTT 5 Correlation Data (binary)
};

}  // namespace mcpud::mqtt
