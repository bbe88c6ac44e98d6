// SPDX-License-Identifier: MIT
// Splitting ws:// and wss:// URLs.
#include "ws_url.hpp"

namespace mcpud::uplinks {

std::string WsTarget::display() const {
  const auto query = target.find('?');
  const std::string shown_host = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return (tls ? "wss://" : "ws://") + shown_host + ":" + port + target.substr(0, query);
}

std::expected<WsTarget, std::string> parse_ws_url(std::string_view url) {
  WsTarget out;
  if (url.starts_with("wss://")) {
    out.tls = true;
    url.remove_prefix(6);
  } else if (url.starts_with("ws://")) {
    url.remove_prefix(5);
  } else {
    return std::unexpected("expected ws:// or wss://, got '" + std::string(url) + "'");
  }
  const auto slash = url.find_first_of("/?");
  std::string_view authority = url.substr(0, slash);
  out.target = slash == std::string_view::npos ? "/" : std::string(url.substr(slash));
  if (out.target.front() == '?') out.target.insert(out.target.begin(), '/');
  if (authority.find('@') != std::string_view::npos) {
    return std::unexpected("credentials in the URL are not supported; use token or token_file");
  }
  std::string_view port;
  if (authority.starts_with("[")) {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return std::unexpected("unterminated [ in the host");
    out.host = std::string(authority.substr(1, close - 1));
    authority.remove_prefix(close + 1);
    if (authority.starts_with(":"))
      port = authority.substr(1);
    else if (!authority.empty())
      return std::unexpected("unexpected text after the host");
  } else {
    const auto colon = authority.rfind(':');
    out.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port = authority.substr(colon + 1);
  }
  if (out.host.empty()) return std::unexpected("no host");
  if (port.empty()) {
    out.port = out.tls ? "443" : "80";
  } else if (port.find_first_not_of("0123456789") != std::string_view::npos || port.size() > 5 ||
             std::stoul(std::string(port)) == 0 || std::stoul(std::string(port)) > 65535) {
    return std::unexpected("port must be 1..65535, got '" + std::string(port) + "'");
  } else {
    out.port = std::string(port);
  }
  return out;
}

}  // namespace mcpud::uplinks
