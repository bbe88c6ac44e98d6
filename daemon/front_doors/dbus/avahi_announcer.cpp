// SPDX-License-Identifier: MIT
// The announcer speaks avahi-daemon's D-Bus API (org.freedesktop.Avahi.Server
// and EntryGroup, avahi's avahi-common/defs.h gives the numbers): one entry
// group holds every service; it is rebuilt when what is wanted changes, when
// avahi-daemon comes back, and under another name after a collision. Signal
// handlers only note what happened: the work runs from the event loop after,
// so no proxy is destroyed inside its own handler.
#include "mcpud/dbus/announcer.hpp"

#include <chrono>

#include <sdbus-c++/sdbus-c++.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "avahi_bus.hpp"
#include "bus_pump.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/dbus/sdbus_compat.hpp"

namespace mcpud::dbus {

namespace {

constexpr const char* kServer = "org.freedesktop.Avahi.Server";
constexpr const char* kEntryGroup = "org.freedesktop.Avahi.EntryGroup";
constexpr std::int32_t kServerRunning = 2;  // AVAHI_SERVER_RUNNING
enum GroupState : std::int32_t { established = 2, collision = 3, failure = 4 };

std::int32_t avahi_protocol(AnnouncedService::Family family) {
  switch (family) {
    case AnnouncedService::Family::ipv4:
      return 0;  // AVAHI_PROTO_INET
    case AnnouncedService::Family::ipv6:
      return 1;  // AVAHI_PROTO_INET6
    case AnnouncedService::Family::any:
      break;
  }
  return -1;  // AVAHI_PROTO_UNSPEC
}

std::vector<std::vector<std::uint8_t>> txt_records(const std::vector<std::string>& txt) {
  std::vector<std::vector<std::uint8_t>> records;
  for (const auto& entry : txt) records.emplace_back(entry.begin(), entry.end());
  return records;
}

std::string describe(const std::vector<AnnouncedService>& services) {
  std::string text;
  for (const auto& service : services)
    text += (text.empty() ? "" : ", ") + service.type + " port " + std::to_string(service.port);
  return text;
}

}  // namespace

struct Announcer::Avahi {
  explicit Avahi(boost::asio::io_context& io_context)
      : io(io_context), pump(io_context, [this](const std::string& why) {
          log::warn("discovery", "the system bus connection failed (", why, "): not announced until the next reload");
          forget_bus();
        }) {}

  boost::asio::io_context& io;
  BusPump pump;
  std::unique_ptr<sdbus::IConnection> connection;
  std::unique_ptr<sdbus::IProxy> bus;     // NameOwnerChanged: avahi-daemon leaving and coming
  std::unique_ptr<sdbus::IProxy> server;  // its state (host name collisions re-register everything)
  std::unique_ptr<sdbus::IProxy> group;   // the entry group holding what is announced
  std::string wanted_name;
  std::vector<AnnouncedService> wanted;
  std::string name;  // wanted_name, or the alternative a collision gave
  std::string announced_name;
  std::vector<AnnouncedService> announced;
  bool group_lost = false;  // avahi-daemon left, and its groups with it
  bool collided = false;
  bool said_unavailable = false;
  bool reconcile_pending = false;
  std::shared_ptr<bool> alive = std::make_shared<bool>(true);

  void schedule() {
    if (reconcile_pending) return;
    reconcile_pending = true;
    boost::asio::post(io, [this, alive = std::weak_ptr<bool>(this->alive)] {
      if (alive.expired()) return;
      reconcile_pending = false;
      reconcile();
    });
  }

  bool connect() {
    try {
      connection = compat::connect(BusKind::System);
      bus = watch_avahi_owner(*connection, [this](bool present) {
        group_lost = true;  // a new avahi-daemon knows nothing of the old one's groups
        if (!present) log::info("discovery", "avahi-daemon left the system bus");
        schedule();
      });
      server = compat::make_proxy(*connection, kAvahi, "/");
      server->uponSignal("StateChanged").onInterface(kServer).call([this](std::int32_t, const std::string&) {
        schedule();
      });
      compat::finish_proxy(*server);
      pump.start(*connection);
      return true;
    } catch (const sdbus::Error& e) {
      if (!said_unavailable)
        log::info("discovery", "no system bus (", e.getMessage(), "): the board is not announced on the LAN");
      said_unavailable = true;
      forget_bus();
      return false;
    }
  }

  void forget_bus() {
    group.reset();
    server.reset();
    bus.reset();
    pump.stop();
    connection.reset();
    announced.clear();
  }

  void reconcile() {
    if (wanted.empty() && !group) return;
    if (!connection && !connect()) return;
    if (group_lost) {
      group.reset();
      announced.clear();
      group_lost = false;
    }
    if (!avahi_running()) {
      drop_group();  // StateChanged or NameOwnerChanged brings the next try
      return;
    }
    if (collided) {
      collided = false;
      rename();
    }
    if (group && announced == wanted && announced_name == name) return;
    const bool had_group = group != nullptr;
    drop_group();
    if (wanted.empty()) {
      if (had_group) log::info("discovery", "withdrawn from the LAN");
      pump.kick();
      return;
    }
    publish();
    pump.kick();  // replies and signals that came during the calls wait in sd-bus's queue
  }

  bool avahi_running() {
    std::int32_t state = 0;
    try {
      server->callMethod("GetState").onInterface(kServer).withTimeout(kAvahiCallTime).storeResultsTo(state);
    } catch (const sdbus::Error& e) {
      if (!said_unavailable)
        log::info("discovery", "no avahi-daemon on the system bus (", e.getMessage(),
                  "): the board is announced on the LAN once it starts");
      said_unavailable = true;
      group.reset();
      announced.clear();
      return false;
    }
    if (said_unavailable) log::info("discovery", "avahi-daemon is on the system bus");
    said_unavailable = false;
    return state == kServerRunning;
  }

  void rename() {
    std::string alternative;
    try {
      server->callMethod("GetAlternativeServiceName")
          .onInterface(kServer)
          .withTimeout(kAvahiCallTime)
          .withArguments(name)
          .storeResultsTo(alternative);
    } catch (const sdbus::Error& e) {
      log::warn("discovery", "no other name for '", name, "': ", e.getMessage());
      return;
    }
    log::warn("discovery", "'", name, "' is taken on the LAN: announcing as '", alternative, "'");
    name = alternative;
  }

  void drop_group() {
    if (!group) return;
    try {
      group->callMethod("Free").onInterface(kEntryGroup).withTimeout(kAvahiCallTime);
    } catch (const sdbus::Error&) {
      // gone already: avahi-daemon left, or freed it on a collision
    }
    group.reset();
    announced.clear();
  }

  void publish() {
    try {
      sdbus::ObjectPath path;
      server->callMethod("EntryGroupNew").onInterface(kServer).withTimeout(kAvahiCallTime).storeResultsTo(path);
      group = compat::make_proxy(*connection, kAvahi, path);
      group->uponSignal("StateChanged")
          .onInterface(kEntryGroup)
          .call([this](std::int32_t state, const std::string& error) { group_state_changed(state, error); });
      compat::finish_proxy(*group);
      for (const auto& service : wanted) {
        group->callMethod("AddService")
            .onInterface(kEntryGroup)
            .withTimeout(kAvahiCallTime)
            .withArguments(std::int32_t{service.interface_index}, avahi_protocol(service.family), std::uint32_t{0},
                           name, service.type, std::string(), std::string(), service.port, txt_records(service.txt));
      }
      group->callMethod("Commit").onInterface(kEntryGroup).withTimeout(kAvahiCallTime);
      announced = wanted;
      announced_name = name;
    } catch (const sdbus::Error& e) {
      log::warn("discovery", "cannot announce '", name, "' (", describe(wanted), "): ", e.getMessage());
      drop_group();
    }
  }

  void group_state_changed(std::int32_t state, const std::string& error) {
    if (state == established) {
      log::info("discovery", "announced '", announced_name, "' on the LAN: ", describe(announced));
    } else if (state == collision) {
      collided = true;
      schedule();
    } else if (state == failure) {
      log::error("discovery", "avahi-daemon could not announce '", announced_name, "': ", error);
    }
  }
};

Announcer::Announcer(boost::asio::io_context& io) : avahi_(std::make_unique<Avahi>(io)) {}

Announcer::~Announcer() { close(); }

void Announcer::announce(const std::string& name, std::vector<AnnouncedService> services) {
  auto& avahi = *avahi_;
  if (name != avahi.wanted_name) avahi.name = name;  // a new name starts without the collision's suffix
  avahi.wanted_name = name;
  avahi.wanted = std::move(services);
  avahi.reconcile();
}

void Announcer::close() {
  avahi_->wanted.clear();
  avahi_->drop_group();
  avahi_->forget_bus();
}

}  // namespace mcpud::dbus
