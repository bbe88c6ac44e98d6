// SPDX-License-Identifier: MIT
#include "lan_announcement.hpp"

#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <fnmatch.h>

#include <cstring>
#include <optional>
#include <set>

#include <boost/asio/ip/address.hpp>

#include "mcpud/io/host_port.hpp"

namespace mcpud::app {

namespace {

namespace ip = boost::asio::ip;
using Family = dbus::AnnouncedService::Family;

constexpr const char* kVersion = "txtvers=1";

bool same_address(const sockaddr* found, const ip::address& address) {
  if (found->sa_family == AF_INET && address.is_v4()) {
    const auto bytes = address.to_v4().to_bytes();
    return std::memcmp(&reinterpret_cast<const sockaddr_in*>(found)->sin_addr, bytes.data(), bytes.size()) == 0;
  }
  if (found->sa_family == AF_INET6 && address.is_v6()) {
    const auto bytes = address.to_v6().to_bytes();
    return std::memcmp(&reinterpret_cast<const sockaddr_in6*>(found)->sin6_addr, bytes.data(), bytes.size()) == 0;
  }
  return false;
}

// The index of the interface that holds `address`; -1 when none does.
int interface_of(const ip::address& address) {
  ifaddrs* interfaces = nullptr;
  if (::getifaddrs(&interfaces) != 0) return -1;
  int index = -1;
  for (const ifaddrs* entry = interfaces; entry && index < 0; entry = entry->ifa_next) {
    if (entry->ifa_addr && same_address(entry->ifa_addr, address))
      index = static_cast<int>(::if_nametoindex(entry->ifa_name));
  }
  ::freeifaddrs(interfaces);
  return index == 0 ? -1 : index;
}

// Where a listener on `address` ("0.0.0.0:3000", "[::]:8080", "192.168.1.5:3000")
// is announced; nothing for loopback or what is not an address and port.
std::optional<dbus::AnnouncedService> placed(const std::string& address) {
  const auto split = io::split_host_port(address);
  if (!split) return std::nullopt;
  boost::system::error_code ec;
  const auto host = ip::make_address(split->host, ec);
  if (ec || host.is_loopback()) return std::nullopt;
  dbus::AnnouncedService service;
  service.port = split->port;
  if (host.is_v4()) service.family = Family::ipv4;
  if (host.is_v6() && !host.is_unspecified()) service.family = Family::ipv6;  // "[::]" takes IPv4 too
  if (!host.is_unspecified()) service.interface_index = interface_of(host);
  return service;
}

}  // namespace

std::vector<dbus::AnnouncedService> services_to_announce(const nlohmann::json& listeners, bool http_token) {
  std::vector<dbus::AnnouncedService> services;
  for (const auto& listener : listeners) {
    const auto kind = listener.value("kind", "");
    if (kind != "tcp" && kind != "tls" && kind != "http") continue;
    auto service = placed(listener.value("address", ""));
    if (!service) continue;
    if (kind == "http") {
      const bool tls = listener.value("url", "").starts_with("https://");
      service->type = "_mcp._tcp";
      service->txt = {kVersion, "path=/mcp", std::string("tls=") + (tls ? "yes" : "no"),
                      std::string("auth=") + (http_token ? "bearer" : "none")};
    } else {
      service->type = "_mcpu._tcp";
      service->txt = {kVersion, std::string("tls=") + (kind == "tls" ? "yes" : "no"), "auth=none"};
    }
    services.push_back(std::move(*service));
  }
  return services;
}

std::vector<bridge::BridgeConfig> place_discovered_bridges(std::vector<bridge::BridgeConfig> configs,
                                                           const std::vector<dbus::FoundService>& found,
                                                           const std::string& own) {
  std::set<std::string> taken;
  std::vector<bridge::BridgeConfig> placed;
  for (auto& config : configs) {
    if (config.discover.empty()) {
      placed.push_back(std::move(config));
      continue;
    }
    for (const auto& board : found) {
      if (board.name == own || taken.contains(board.name) ||
          ::fnmatch(config.discover.c_str(), board.name.c_str(), 0) != 0)
        continue;
      taken.insert(board.name);
      const bool v6 = board.address.find(':') != std::string::npos;
      config.tcp = (v6 ? "[" + board.address + "]" : board.address) + ":" + std::to_string(board.port);
      placed.push_back(std::move(config));
      break;
    }
  }
  return placed;
}

std::string instance_name(const std::string& name, const std::string& device) {
  std::string chosen = name.empty() ? device : name;
  constexpr std::size_t kMaxLabel = 63;
  if (chosen.size() <= kMaxLabel) return chosen;
  std::size_t cut = kMaxLabel;
  while (cut > 0 && (static_cast<unsigned char>(chosen[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return chosen.substr(0, cut);
}

}  // namespace mcpud::app
