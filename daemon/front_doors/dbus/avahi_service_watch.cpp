// SPDX-License-Identifier: MIT
// A ServiceBrowser for the type, made with ServiceBrowserPrepare and started
// once its signals are subscribed, and a ServiceResolver per instance it
// reports, which says Found again whenever the address or port change. An
// instance that leaves keeps its last address: a board that reboots is dialled
// there until it says where it is now. avahi-daemon 0.8 (bookworm, trixie)
// starts a resolver at ServiceResolverPrepare already (avahi issue 446), so
// resolver signals are taken from one match on the connection, made before the
// first resolver, not from a proxy made after it. Work is deferred out of
// signal handlers to the event loop.
#include "mcpud/dbus/service_watch.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include <sdbus-c++/sdbus-c++.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "avahi_bus.hpp"
#include "bus_pump.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/dbus/sdbus_compat.hpp"

namespace mcpud::dbus {

namespace {

constexpr const char* kServer2 = "org.freedesktop.Avahi.Server2";
constexpr const char* kBrowser = "org.freedesktop.Avahi.ServiceBrowser";
constexpr const char* kResolver = "org.freedesktop.Avahi.ServiceResolver";
// The LAN is not trusted: what anyone may announce is bounded.
constexpr std::size_t kMaxInstances = 64;

// interface, protocol, name, type, domain: one instance as the browser reports it.
using Item = std::tuple<std::int32_t, std::int32_t, std::string, std::string, std::string>;

}  // namespace

struct ServiceWatch::Browse {
  Browse(boost::asio::io_context& io_context, std::string service_type, Changed on_change)
      : io(io_context),
        type(std::move(service_type)),
        changed(std::move(on_change)),
        pump(io_context, [this](const std::string& why) {
          log::warn("discovery", "the system bus connection failed (", why, "): not browsing for ", type);
          forget_bus();
        }) {}

  boost::asio::io_context& io;
  std::string type;
  Changed changed;
  BusPump pump;
  std::unique_ptr<sdbus::IConnection> connection;
  std::unique_ptr<sdbus::IProxy> bus;
  std::unique_ptr<sdbus::IProxy> browser;
  sdbus::Slot resolver_signals;
  std::map<Item, std::string> resolvers;                // the object path of each instance's resolver
  std::vector<std::unique_ptr<sdbus::IProxy>> retired;  // freed on the next turn of the loop
  // By instance name, then by the protocol (IPv4 first) it was found over.
  std::map<std::string, std::map<std::int32_t, FoundService>> found;
  std::vector<FoundService> told;
  bool said_unavailable = false;
  bool said_full = false;
  bool restart_pending = false;
  std::shared_ptr<bool> alive = std::make_shared<bool>(true);

  void later(std::function<void()> work) {
    boost::asio::post(io, [alive = std::weak_ptr<bool>(alive), work = std::move(work)] {
      if (!alive.expired()) work();
    });
  }

  void start() {
    if (!connection && !connect()) return;
    retire_browsing();
    try {
      sdbus::ObjectPath path;
      bus_call(*bus_server(), "ServiceBrowserPrepare", path, std::int32_t{-1}, std::int32_t{-1}, type, std::string(),
               std::uint32_t{0});
      browser = compat::make_proxy(*connection, kAvahi, path);
      browser->uponSignal("ItemNew").onInterface(kBrowser).call(
          [this](std::int32_t interface, std::int32_t protocol, const std::string& name, const std::string& found_type,
                 const std::string& domain, std::uint32_t) {
            later([this, item = Item{interface, protocol, name, found_type, domain}] { item_new(item); });
          });
      browser->uponSignal("ItemRemove")
          .onInterface(kBrowser)
          .call([this](std::int32_t interface, std::int32_t protocol, const std::string& name,
                       const std::string& found_type, const std::string& domain, std::uint32_t) {
            later([this, item = Item{interface, protocol, name, found_type, domain}] { retire(item); });
          });
      browser->uponSignal("Failure").onInterface(kBrowser).call(
          [this](const std::string& error) { log::warn("discovery", "browsing for ", type, " failed: ", error); });
      compat::finish_proxy(*browser);
      browser->callMethod("Start").onInterface(kBrowser).withTimeout(kAvahiCallTime);
      if (said_unavailable) log::info("discovery", "avahi-daemon is on the system bus: browsing for ", type);
      said_unavailable = false;
    } catch (const sdbus::Error& e) {
      if (!said_unavailable)
        log::info("discovery", "no avahi-daemon on the system bus (", e.getMessage(), "): browsing for ", type,
                  " once it starts");
      said_unavailable = true;
      retire_browsing();
    }
    pump.kick();
  }

  std::unique_ptr<sdbus::IProxy>& bus_server() {
    if (!server) server = compat::make_proxy(*connection, kAvahi, "/");
    return server;
  }
  std::unique_ptr<sdbus::IProxy> server;

  template <class Result, class... Arguments>
  void bus_call(sdbus::IProxy& proxy, const char* method, Result& result, const Arguments&... arguments) {
    proxy.callMethod(method)
        .onInterface(kServer2)
        .withTimeout(kAvahiCallTime)
        .withArguments(arguments...)
        .storeResultsTo(result);
  }

  bool connect() {
    try {
      connection = compat::connect(BusKind::System);
      bus = watch_avahi_owner(*connection, [this](bool present) {
        if (!present || restart_pending) return;
        restart_pending = true;  // a new avahi-daemon knows nothing of the old one's browsers
        later([this] {
          restart_pending = false;
          start();
        });
      });
      resolver_signals = compat::add_match(
          *connection, std::string("type='signal',sender='") + kAvahi + "',interface='" + kResolver + "'",
          [this](sdbus::Message& message) { resolver_signal(message); });
      pump.start(*connection);
      return true;
    } catch (const sdbus::Error& e) {
      log::info("discovery", "no system bus (", e.getMessage(), "): not browsing for ", type);
      forget_bus();
      return false;
    }
  }

  void item_new(Item item) {
    if (!connection || resolvers.contains(item)) return;
    if (resolvers.size() >= kMaxInstances) {
      if (!said_full)
        log::warn("discovery", "more than ", kMaxInstances, " ", type, " instances on the LAN: the rest are ignored");
      said_full = true;
      return;
    }
    try {
      const auto& [interface, protocol, name, found_type, domain] = item;
      sdbus::ObjectPath path;
      // An address of the protocol the instance was seen over: left to choose,
      // avahi-daemon may answer an IPv4 browse with a link-local IPv6 address.
      bus_call(*bus_server(), "ServiceResolverPrepare", path, interface, protocol, name, found_type, domain, protocol,
               std::uint32_t{0});
      resolvers.emplace(item, path);
      compat::make_proxy(*connection, kAvahi, path)
          ->callMethod("Start")
          .onInterface(kResolver)
          .withTimeout(kAvahiCallTime);
    } catch (const sdbus::Error& e) {
      log::warn("discovery", "cannot resolve '", std::get<2>(item), "' (", type, "): ", e.getMessage());
    }
    pump.kick();  // what came in during the calls waits in sd-bus's queue
  }

  // Every resolver signal of this connection: a Found of an instance still
  // browsed is taken; the rest are dropped (a Failure leaves its instance
  // unresolved until it is announced again).
  void resolver_signal(sdbus::Message& message) {
    const std::string path = message.getPath();
    const std::string member = message.getMemberName();
    const bool ours = std::any_of(resolvers.begin(), resolvers.end(), [&](const auto& r) { return r.second == path; });
    if (!ours || member != "Found") return;
    std::int32_t interface = 0, protocol = 0, address_protocol = 0;
    std::string name, found_type, domain, host, address;
    std::uint16_t port = 0;
    try {
      message >> interface >> protocol >> name >> found_type >> domain >> host >> address_protocol >> address >> port;
    } catch (const sdbus::Error& e) {
      log::warn("discovery", "a resolver's Found that does not read (", e.getMessage(), "): ignored");
      return;
    }
    later(
        [this, address_protocol, service = FoundService{name, address, port}] { resolved(address_protocol, service); });
  }

  void resolved(std::int32_t protocol, FoundService service) {
    // avahi-daemon gives a link-local IPv6 address without its zone: not one to dial.
    if (service.address.starts_with("fe80:")) return;
    if (!found.contains(service.name) && found.size() >= kMaxInstances) return;
    auto& by_protocol = found[service.name];
    if (const auto at = by_protocol.find(protocol); at != by_protocol.end() && at->second == service) return;
    by_protocol[protocol] = std::move(service);
    later([this] { tell(); });
  }

  // One address per instance: IPv4 where it has one (AVAHI_PROTO_INET is 0).
  void tell() {
    std::vector<FoundService> now;
    for (const auto& [name, by_protocol] : found) now.push_back(by_protocol.begin()->second);
    if (now == told) return;
    told = now;
    changed(told);
  }

  // Frees the resolver of an instance that left (avahi-daemon keeps it otherwise).
  void retire(const Item& item) {
    const auto at = resolvers.find(item);
    if (at == resolvers.end()) return;
    later([this, path = at->second] {
      if (!connection) return;
      try {
        compat::make_proxy(*connection, kAvahi, path)
            ->callMethod("Free")
            .onInterface(kResolver)
            .withTimeout(kAvahiCallTime);
      } catch (const sdbus::Error&) {
      }
      pump.kick();
    });
    resolvers.erase(at);
  }

  // A new avahi-daemon knows none of the old one's objects: nothing to free.
  void retire_browsing() {
    resolvers.clear();
    if (browser) retired.push_back(std::move(browser));
    later([this] { retired.clear(); });
  }

  void forget_bus() {
    resolver_signals.reset();
    resolvers.clear();
    retired.clear();
    browser.reset();
    server.reset();
    bus.reset();
    pump.stop();
    connection.reset();
  }
};

ServiceWatch::ServiceWatch(boost::asio::io_context& io, std::string type, Changed changed)
    : browse_(std::make_unique<Browse>(io, std::move(type), std::move(changed))) {}

ServiceWatch::~ServiceWatch() { stop(); }

void ServiceWatch::start() { browse_->start(); }

void ServiceWatch::stop() { browse_->forget_bus(); }

}  // namespace mcpud::dbus
