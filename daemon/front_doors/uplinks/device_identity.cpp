// SPDX-License-Identifier: MIT
// Device-Id from the network interfaces, Client-Id from the machine id.
#include "device_identity.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <tuple>

// Beast's SHA-1 (it hashes the WebSocket handshake key): OpenSSL is not linked
// into mcpud (tls_link.hpp), and these identities are names, not secrets.
#include <boost/beast/core/detail/sha1.hpp>

namespace mcpud::uplinks {
namespace {

std::string format_mac(const unsigned char* bytes) {
  char text[18];
  std::snprintf(text, sizeof text, "%02x:%02x:%02x:%02x:%02x:%02x", bytes[0], bytes[1], bytes[2], bytes[3], bytes[4],
                bytes[5]);
  return text;
}

std::string sha1(std::string_view text) {
  namespace detail = boost::beast::detail;
  detail::sha1_context context;
  detail::init(context);
  detail::update(context, text.data(), text.size());
  std::array<char, detail::sha1_context::digest_size> digest{};
  detail::finish(context, digest.data());
  return std::string(digest.data(), digest.size());
}

// What tells this machine apart from others: systemd's machine id, else the host name.
std::string machine_identity() {
  for (const char* path : {"/etc/machine-id", "/var/lib/dbus/machine-id"}) {
    std::ifstream in(path);
    std::string id;
    if (in && std::getline(in, id) && !id.empty()) return id;
  }
  char host[HOST_NAME_MAX + 1] = {};
  gethostname(host, sizeof host - 1);
  return host;
}

}  // namespace

std::vector<NetInterface> read_interfaces(const std::filesystem::path& sysfs_net) {
  std::vector<NetInterface> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(sysfs_net, ec)) {
    const auto dir = entry.path();
    const auto read = [&](const char* name) {
      std::ifstream in(dir / name);
      std::string text;
      std::getline(in, text);
      return text;
    };
    NetInterface net;
    net.name = dir.filename().string();
    net.address = read("address");
    net.up = read("operstate") == "up";
    net.physical = std::filesystem::exists(dir / "device", ec);
    net.loopback = read("type") == "772";  // ARPHRD_LOOPBACK
    const auto index = read("ifindex");
    net.index = index.empty() ? UINT_MAX : static_cast<unsigned>(std::strtoul(index.c_str(), nullptr, 10));
    found.push_back(std::move(net));
  }
  return found;
}

std::optional<std::string> choose_device_mac(const std::vector<NetInterface>& interfaces) {
  const NetInterface* best = nullptr;
  // Physical before virtual (ifb0, docker0, veth...), up before down, then the lowest index.
  const auto rank = [](const NetInterface& n) { return std::tuple(!n.physical, !n.up, n.index); };
  for (const auto& net : interfaces) {
    const bool usable = !net.loopback && net.address.size() == 17 && net.address != "00:00:00:00:00:00";
    if (usable && (!best || rank(net) < rank(*best))) best = &net;
  }
  if (!best) return std::nullopt;
  std::string mac = best->address;
  std::transform(mac.begin(), mac.end(), mac.begin(), [](unsigned char c) { return std::tolower(c); });
  return mac;
}

std::string default_device_id() {
  if (auto mac = choose_device_mac(read_interfaces("/sys/class/net"))) return *mac;
  auto bytes = sha1("mcpud-device:" + machine_identity());
  bytes[0] = static_cast<char>((bytes[0] & 0xfe) | 0x02);  // unicast, locally administered
  return format_mac(reinterpret_cast<const unsigned char*>(bytes.data()));
}

std::string uuid_from_digest(std::string_view digest) {
  std::array<unsigned char, 16> b{};
  for (std::size_t i = 0; i < b.size() && i < digest.size(); ++i) b[i] = static_cast<unsigned char>(digest[i]);
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x50);
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
  char text[37];
  std::snprintf(text, sizeof text, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return text;
}

std::string derived_client_id(std::string_view device_id) {
  return uuid_from_digest(sha1("mcpud-assistant-client:" + machine_identity() + ":" + std::string(device_id)));
}

std::string default_reply_topic(std::string_view device_id) {
  std::string topic = "devices/p2p/";
  for (const char c : device_id) topic.push_back(c == ':' ? '_' : c);
  return topic;
}

}  // namespace mcpud::uplinks
