// SPDX-License-Identifier: MIT
// A MessageLink over a WebSocket client connection (Boost.Beast): ws:// or
// wss:// (OpenSSL, server verified against the system CAs or a CA file, SNI),
// extra handshake headers, bounded messages and write queue, pings at an
// interval and a dead-server check. Event loop only.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "message_link.hpp"
#include "ws_url.hpp"

namespace mcpud::uplinks {

// Filled from [uplink.assistant] by the assistant uplink; connect_timeout is the link's own.
struct WsOptions {
  WsTarget target;
  std::vector<std::pair<std::string, std::string>> headers;  // added to the upgrade request
  std::string ca_file;                                       // "" = the system CA store
  bool insecure_skip_verify{};
  std::size_t max_message_bytes{};
  std::size_t queue_bytes{};
  std::chrono::milliseconds ping_interval{};  // a server silent for 3 intervals is gone
  std::chrono::milliseconds connect_timeout{10000};
};

// A wss:// link comes from the TLS module (tls_link.hpp); throws std::runtime_error
// when that cannot be loaded.
std::shared_ptr<MessageLink> make_ws_link(boost::asio::io_context& io, WsOptions options);

}  // namespace mcpud::uplinks
