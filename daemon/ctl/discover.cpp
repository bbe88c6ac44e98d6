// SPDX-License-Identifier: MIT
// Each service type gets a ServiceBrowser made with ServiceBrowserPrepare and
// started only once its signals are subscribed (a browser made and started at
// once may report what is cached before anyone listens). What it reports is
// resolved afterwards, one ResolveService call each.
#include "discover.hpp"

#include <poll.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include <sdbus-c++/sdbus-c++.h>

#include "mcpud/dbus/sdbus_compat.hpp"
#include "render.hpp"

namespace mcpud::ctl {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr const char* kAvahi = "org.freedesktop.Avahi";
constexpr const char* kBrowser = "org.freedesktop.Avahi.ServiceBrowser";
constexpr auto kResolveTime = std::chrono::seconds(3);

struct Types {
  const char* type;
  const char* service;  // as shown
};
constexpr Types kTypes[] = {{"_mcpu._tcp", "mcpu"}, {"_mcp._tcp", "mcp"}};

// interface, protocol, name, type, domain: what names one service instance.
using Item = std::tuple<std::int32_t, std::int32_t, std::string, std::string, std::string>;

struct Browse {
  std::unique_ptr<sdbus::IProxy> proxy;
  bool all_for_now = false;
};

// Processes `connection` until `done` or the deadline.
void run_until(sdbus::IConnection& connection, Clock::time_point deadline, const std::function<bool()>& done) {
  while (!done()) {
    while (dbus::compat::process_one(connection)) {
      if (done()) return;
    }
    const auto now = Clock::now();
    if (now >= deadline) return;
    const auto data = dbus::compat::poll_data(connection);
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    if (data.timeout) wait = std::min(wait, std::chrono::duration_cast<std::chrono::milliseconds>(*data.timeout));
    pollfd fds[2] = {{data.fd, data.events, 0}, {data.event_fd, POLLIN, 0}};
    ::poll(fds, data.event_fd >= 0 ? 2 : 1, static_cast<int>(wait.count()) + 1);
  }
}

json txt_object(const std::vector<std::vector<std::uint8_t>>& records) {
  json txt = json::object();
  for (const auto& record : records) {
    const std::string entry(record.begin(), record.end());
    const auto equals = entry.find('=');
    txt[entry.substr(0, equals)] = equals == std::string::npos ? "" : entry.substr(equals + 1);
  }
  return txt;
}

std::string url_of(const std::string& service, const std::string& host, std::uint16_t port, const json& txt) {
  const bool tls = txt.value("tls", "") == "yes";
  const auto authority = host + ":" + std::to_string(port);
  if (service == "mcp") return std::string(tls ? "https://" : "http://") + authority + txt.value("path", "/mcp");
  return std::string(tls ? "mcpu+tls://" : "mcpu://") + authority;
}

json resolve(sdbus::IProxy& server, const Item& item, const std::string& service) {
  const auto& [interface, protocol, name, type, domain] = item;
  std::int32_t found_interface = 0, found_protocol = 0, address_protocol = 0;
  std::string found_name, found_type, found_domain, host, address;
  std::uint16_t port = 0;
  std::vector<std::vector<std::uint8_t>> txt;
  std::uint32_t flags = 0;
  server.callMethod("ResolveService")
      .onInterface("org.freedesktop.Avahi.Server")
      .withTimeout(kResolveTime)
      .withArguments(interface, protocol, name, type, domain, std::int32_t{-1}, std::uint32_t{0})
      .storeResultsTo(found_interface, found_protocol, found_name, found_type, found_domain, host, address_protocol,
                      address, port, txt, flags);
  const auto records = txt_object(txt);
  return {{"name", name},       {"service", service}, {"host", host},
          {"address", address}, {"port", port},       {"url", url_of(service, host, port, records)},
          {"txt", records}};
}

// A browser for `type`, not started yet.
sdbus::ObjectPath prepare_browser(sdbus::IProxy& server, const char* type) {
  sdbus::ObjectPath path;
  try {
    server.callMethod("ServiceBrowserPrepare")
        .onInterface("org.freedesktop.Avahi.Server2")
        .withArguments(std::int32_t{-1}, std::int32_t{-1}, std::string(type), std::string(), std::uint32_t{0})
        .storeResultsTo(path);
  } catch (const sdbus::Error& e) {
    const auto name = dbus::compat::error_name(e);
    if (name != "org.freedesktop.DBus.Error.ServiceUnknown" && name != "org.freedesktop.DBus.Error.NameHasNoOwner")
      throw;
    throw dbus::compat::make_error(std::string(dbus::kErrorPrefix) + "NoAvahi",
                                   "avahi-daemon is not running on the system bus (org.freedesktop.Avahi has no "
                                   "owner): start it, or install it with apt install avahi-daemon");
  }
  return path;
}

}  // namespace

json discover(std::chrono::milliseconds wait) {
  auto connection = dbus::compat::connect(dbus::BusKind::System);
  auto server = dbus::compat::make_proxy(*connection, kAvahi, "/");
  std::map<Item, std::string> items;  // what each browser reported, with the service it is
  std::vector<Browse> browses;
  browses.reserve(std::size(kTypes));  // the handlers hold references into it
  std::string failure;
  for (const auto& [type, service] : kTypes) {
    const auto path = prepare_browser(*server, type);
    auto& browse = browses.emplace_back(Browse{dbus::compat::make_proxy(*connection, kAvahi, path)});
    const std::string shown = service;
    auto& proxy = *browse.proxy;
    proxy.uponSignal("ItemNew").onInterface(kBrowser).call(
        [&items, shown](std::int32_t interface, std::int32_t protocol, const std::string& name,
                        const std::string& found_type, const std::string& domain, std::uint32_t) {
          items[{interface, protocol, name, found_type, domain}] = shown;
        });
    proxy.uponSignal("ItemRemove")
        .onInterface(kBrowser)
        .call([&items](std::int32_t interface, std::int32_t protocol, const std::string& name,
                       const std::string& found_type, const std::string& domain, std::uint32_t) {
          items.erase({interface, protocol, name, found_type, domain});
        });
    proxy.uponSignal("AllForNow").onInterface(kBrowser).call([&all = browse.all_for_now] { all = true; });
    proxy.uponSignal("Failure").onInterface(kBrowser).call([&failure](const std::string& error) { failure = error; });
    dbus::compat::finish_proxy(proxy);
    proxy.callMethod("Start").onInterface(kBrowser);
  }
  run_until(*connection, Clock::now() + wait, [&] {
    return !failure.empty() ||
           std::all_of(browses.begin(), browses.end(), [](const Browse& browse) { return browse.all_for_now; });
  });
  if (!failure.empty()) throw dbus::compat::make_error("org.freedesktop.Avahi.Failure", "browsing failed: " + failure);
  json found = json::array();
  for (const auto& [item, service] : items) {
    try {
      found.push_back(resolve(*server, item, service));
    } catch (const sdbus::Error&) {
      // gone between browsing and resolving, or not answering: not a board to list
    }
  }
  return found;
}

void print_discovered(std::ostream& out, const json& found) {
  if (found.empty()) {
    out << "no boards found on the LAN\n";
    return;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& board : found) {
    std::string details;
    for (const auto& [key, value] : board["txt"].items()) {
      if (key == "txtvers" || key == "path") continue;
      details += (details.empty() ? "" : " ") + key + "=" + value.get<std::string>();
    }
    rows.push_back({board["name"].get<std::string>(), board["service"].get<std::string>(),
                    board["address"].get<std::string>(), board["url"].get<std::string>(), details});
  }
  print_table(out, {"NAME", "SERVICE", "ADDRESS", "URL", "DETAILS"}, rows);
}

}  // namespace mcpud::ctl
