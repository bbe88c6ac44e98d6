// SPDX-License-Identifier: MIT
// Things that happen inside the daemon which clients may want pushed to them
// (pin events, tool-set changes, serial data, ...). Back rooms publish; front
// doors (sessions, D-Bus, uplinks) subscribe and translate into their own
// notifications. Single-threaded (event loop only).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcpud/core/client_identity.hpp"

namespace mcpud {

enum class EventKind {
  ToolsChanged,      // the tool set changed (reload, a bridged device came or went)
  PinEvent,          // source: pin name; data: {pin, name, type, value, threshold?, timestamp_ms, seq}
  PinChanged,        // source: pin name; data: {pin, name, value}: an output was driven
  SerialData,        // source: serial session id; data: {session_id, port, data, encoding, bytes}
  ToolPolled,        // source: tool name; data: the latest result of a polled tool
  Log,               // source: category; data: {level, message}: something a client should see
  ToolCalled,        // source: tool name; data: {door, client, tool, arguments, ok, error?, duration_ms, ...}
  LogLine,           // source: category; data: {seq, time_ms, level, category, message}: one line of the log
  PinSampled,        // source: pin name; data: {pin, name, values, timestamps_ms}: samples since the last one
  StatusChanged,     // source: "daemon"; data: the daemon's status, as mcpu://daemon/status reads it
  ResourcesChanged,  // source: who changed them ("bridge:uno"); no data: the resource list changed
  BusTransfer,       // source: the device ("i2c-1-0x76"); data: {kind, bus, address | chip_select, last}
  // source: the output's name; data: {output, action, value, reason, client}: mcpud drove an output
  // by itself (action "release", "lease", "max_on", "hold", "interlock", "release_all"; docs/safety.md)
  SafetyAction,
};
inline constexpr std::size_t kEventKindCount = static_cast<std::size_t>(EventKind::SafetyAction) + 1;
std::string_view event_kind_name(EventKind kind);

struct Event {
  EventKind kind;
  std::string source;
  nlohmann::json data;
  // Set: only this client may be told (data of a serial session it owns).
  std::shared_ptr<const ClientIdentity> audience;
};

class EventHub {
 public:
  using Listener = std::function<void(const Event&)>;

  // Unsubscribes when destroyed; may outlive the hub.
  class Subscription {
   public:
    Subscription() = default;
    Subscription(Subscription&&) noexcept = default;
    Subscription& operator=(Subscription&&) noexcept = default;
    ~Subscription() { reset(); }
    void reset();

   private:
    friend class EventHub;
    Subscription(std::weak_ptr<std::map<std::uint64_t, Listener>> listeners, std::uint64_t id)
        : listeners_(std::move(listeners)), id_(id) {}
    std::weak_ptr<std::map<std::uint64_t, Listener>> listeners_;
    std::uint64_t id_ = 0;
  };

  [[nodiscard]] Subscription subscribe(Listener listener);
  // Delivers to every listener subscribed now. A listener may subscribe or
  // unsubscribe others (or itself) while it runs.
  void publish(const Event& event);

  std::size_t listener_count() const { return listeners_->size(); }

  // A subscriber's declared interest in one kind of event, held while it lasts.
  // Producers of costly streams (every call, every sample) ask wanted() and
  // build nothing while nobody holds an interest. May outlive the hub.
  class Interest {
   public:
    Interest() = default;
    Interest(Interest&& other) noexcept : counts_(std::move(other.counts_)), kind_(other.kind_) {
      other.counts_.reset();
    }
    Interest& operator=(Interest&& other) noexcept;
    ~Interest() { reset(); }
    void reset();

   private:
    friend class EventHub;
    using Counts = std::array<std::size_t, kEventKindCount>;
    Interest(std::weak_ptr<Counts> counts, EventKind kind) : counts_(std::move(counts)), kind_(kind) {}
    std::weak_ptr<Counts> counts_;
    EventKind kind_ = EventKind::ToolsChanged;
  };

  [[nodiscard]] Interest want(EventKind kind);
  // Whether some subscriber holds an Interest in `kind` now.
  bool wanted(EventKind kind) const { return (*interest_)[static_cast<std::size_t>(kind)] > 0; }

  // Something the daemon status shows changed (`what`: "clients", "uplinks", ...).
  // Tells the one status watcher, and only while some subscriber wants
  // StatusChanged: one comparison otherwise.
  void touch_status(std::string_view what) {
    if (status_watcher_ && wanted(EventKind::StatusChanged)) status_watcher_(what);
  }
  // Sets (or with nullptr clears) who builds StatusChanged events from touches.
  void watch_status(std::function<void(std::string_view what)> watcher) { status_watcher_ = std::move(watcher); }

 private:
  std::shared_ptr<std::map<std::uint64_t, Listener>> listeners_ = std::make_shared<std::map<std::uint64_t, Listener>>();
  std::shared_ptr<Interest::Counts> interest_ = std::make_shared<Interest::Counts>();
  std::uint64_t next_id_ = 1;
  std::function<void(std::string_view)> status_watcher_;
};

}  // namespace mcpud
