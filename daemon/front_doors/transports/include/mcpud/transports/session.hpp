// SPDX-License-Identifier: MIT
// What every connected client has in common, and the set that owns them all so
// the daemon can count and close them. Single-threaded.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mcpud::transports {

// Listeners borrow one instance owned by the daemon, so a reload that changes the
// limits applies to every connection accepted after it. The daemon fills it from
// [limits] (whose defaults are the configuration schema's) before any listener opens.
struct SessionLimits {
  std::size_t max_line_bytes{};
  std::size_t queue_bytes{};  // replies waiting for a slow reader; also one line's reply at most
  std::size_t max_clients{};  // connections of one transport, all its listeners together
  // Network (TCP) clients only: how many one address may hold, and how long one
  // may stay silent (nothing read, nothing written, no call waiting; 0: forever).
  std::size_t max_clients_per_address{};
  std::chrono::seconds idle_timeout{};
};

class Session {
 public:
  virtual ~Session() = default;
  virtual void close() = 0;
  virtual const std::string& peer() const = 0;       // "127.0.0.1:51234", "/dev/ttyGS0"
  virtual const std::string& transport() const = 0;  // "tcp", "tty"
  // The network address of the peer ("127.0.0.1"), empty for local transports.
  virtual const std::string& address() const = 0;
};

class SessionSet {
 public:
  void add(std::shared_ptr<Session> session) {
    sessions_.emplace(session.get(), std::move(session));
    if (changed_) changed_();
  }
  void remove(Session* session) {
    if (sessions_.erase(session) > 0 && changed_) changed_();
  }
  // Called after a session is added or removed (for the daemon's status).
  void on_change(std::function<void()> changed) { changed_ = std::move(changed); }
  std::size_t size() const { return sessions_.size(); }
  std::size_t count(std::string_view transport) const {
    std::size_t n = 0;
    for (const auto& [raw, session] : sessions_) n += session->transport() == transport ? 1 : 0;
    return n;
  }
  std::size_t count_from(std::string_view transport, std::string_view address) const {
    std::size_t n = 0;
    for (const auto& [raw, session] : sessions_)
      n += session->transport() == transport && session->address() == address ? 1 : 0;
    return n;
  }
  template <class Visit>
  void for_each(Visit&& visit) const {
    for (const auto& [raw, session] : sessions_) visit(static_cast<const Session&>(*session));
  }
  void close_all() {
    // close() calls back into remove(); iterate over a copy.
    auto copy = sessions_;
    for (auto& [raw, session] : copy) session->close();
    sessions_.clear();
  }

 private:
  std::unordered_map<Session*, std::shared_ptr<Session>> sessions_;
  std::function<void()> changed_;
};

}  // namespace mcpud::transports
