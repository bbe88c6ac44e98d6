// SPDX-License-Identifier: MIT
// Session bookkeeping: opening, owners, limits, closing, hot-plug.
#include "mcpud/serial/serial_service.hpp"

#include <algorithm>
#include <random>

#include <boost/asio/post.hpp>

#include "mcpud/serial/serial_log.hpp"
#include "port_access.hpp"

namespace mcpud::serial {
namespace {

// Disconnected sessions are kept so the client learns why; this many at most.
constexpr std::size_t kMaxDisconnectedKept = 32;

}  // namespace

std::string new_session_id() {
  static std::mt19937_64 engine{std::random_device{}()};
  const std::uint64_t hi = engine(), lo = engine();
  char text[37];
  std::snprintf(text, sizeof text, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>(hi >> 16) & 0xFFFF, static_cast<unsigned>(hi) & 0x0FFF,
                (static_cast<unsigned>(lo >> 48) & 0x3FFF) | 0x8000,
                static_cast<unsigned long long>(lo & 0xFFFFFFFFFFFFULL));
  return text;
}

SerialService::SerialService(boost::asio::io_context& io, EventHub& events, SerialConfig config)
    : io_(io), events_(events) {
  reconfigure(std::move(config));
}

SerialService::~SerialService() { shutdown(); }

void SerialService::reconfigure(SerialConfig config) {
  config_ = std::move(config);
  log::set_level(config_.log_level.empty() ? std::nullopt : mcpud::log::parse_level(config_.log_level));
  if (config_.hotplug && !udev_) {
    udev_ = io::UdevMonitor::create(io_, [this](std::string_view action, const std::string& devnode) {
      if (action == "remove") device_removed(devnode);
    });
  } else if (!config_.hotplug) {
    udev_.reset();
  }
}

Result<void> SerialService::check_capacity(const OpenRequest& request) const {
  const auto open_count = std::count_if(sessions_.begin(), sessions_.end(),
                                        [](const auto& s) { return s.second->state() == SessionState::Open; });
  if (static_cast<std::size_t>(open_count) >= config_.max_sessions) {
    return std::unexpected(Error::domain(
        DomainError::Busy,
        "too many open serial sessions (" + std::to_string(config_.max_sessions) + "); serial_disconnect one first"));
  }
  const auto in_use = buffer_bytes_in_use();
  if (request.buffer_bytes > config_.buffer_bytes_total || in_use > config_.buffer_bytes_total - request.buffer_bytes) {
    return std::unexpected(Error::domain(
        DomainError::Busy,
        "a buffer of " + std::to_string(request.buffer_bytes) + " bytes would pass [serial] buffer_bytes_total (" +
            std::to_string(config_.buffer_bytes_total) + " bytes): " + std::to_string(in_use) + " are in use by " +
            std::to_string(sessions_.size()) + " sessions; serial_disconnect one or ask for a smaller buffer_bytes"));
  }
  return {};
}

Result<std::shared_ptr<SerialSession>> SerialService::open(const OpenRequest& request,
                                                           const std::shared_ptr<ClientIdentity>& owner) {
  const std::string port = port_path(request.port);
  close_unused_stateless();
  auto device = check_port(config_, port);
  if (!device) return std::unexpected(device.error());
  if (auto holder = session_for_device(device->path)) {
    // Another client's session id is not told: it would let that client's session be found.
    const std::string which =
        holder->usable_by(owner) ? "serial session " + holder->options().id : "another serial session";
    return std::unexpected(Error::domain(DomainError::PortAlreadyInUse,
                                         port + " is already open in " + which + " (serial_disconnect it first)"));
  }
  if (auto room = check_capacity(request); !room) return std::unexpected(room.error());
  auto opened = io::open_serial_device(*device, request.settings);
  if (!opened) return std::unexpected(opened.error());
  const auto baud = opened->settings.baud;
  SessionOptions options{new_session_id(),    port, device->path, opened->settings, request.timeout, request.newline,
                         request.buffer_bytes};
  options.stateless = owner && owner->lasts_one_request() && !config_.share_sessions;
  options.owned = owner && !config_.share_sessions && !options.stateless;
  if (options.owned) options.owner = owner;
  auto session = std::make_shared<SerialSession>(io_, std::move(opened->fd), std::move(options), events_);
  session->start();
  sessions_.emplace(session->options().id, session);
  order_.push_back(session->options().id);
  if (session->options().owned) close_with_owner(owner);
  log::info("session ", session->options().id, ": opened ", port, " at ", baud, " baud");
  forget_old_disconnected();
  return session;
}

void SerialService::close_with_owner(const std::shared_ptr<ClientIdentity>& owner) {
  // The identity dies inside its client's destructor: the closing runs later, on the loop.
  owner->when_gone(this, [alive = std::weak_ptr<SerialService*>(self_)] {
    if (auto self = alive.lock()) {
      boost::asio::post((*self)->io_, [alive] {
        if (auto service = alive.lock()) (*service)->close_orphans();
      });
    }
  });
}

void SerialService::close_orphans() {
  auto ids = order_;
  for (const auto& id : ids) {
    const auto it = sessions_.find(id);
    if (it == sessions_.end() || !it->second->orphaned()) continue;
    log::info("session ", id, ": its client went away");
    close(id);
  }
}

Result<std::shared_ptr<SerialSession>> SerialService::find(std::string_view id,
                                                           const std::shared_ptr<ClientIdentity>& who) const {
  const auto it = sessions_.find(id);
  if (it == sessions_.end() || !it->second->usable_by(who)) {
    return std::unexpected(Error::domain(
        DomainError::UnknownSession, "no serial session with id '" + std::string(id) + "' (see serial_list_sessions)"));
  }
  it->second->mark_used();
  return it->second;
}

void SerialService::close_unused_stateless() {
  const auto limit = std::chrono::milliseconds(config_.stateless_idle_ms);
  const auto now = std::chrono::steady_clock::now();
  auto ids = order_;
  for (const auto& id : ids) {
    const auto& session = *sessions_.at(id);
    if (!session.options().stateless || session.pending_reads() > 0 || now - session.last_used() < limit) continue;
    log::info("session ", id, ": unused for ", config_.stateless_idle_ms, " ms by the stateless client that opened it");
    close(id);
  }
}

std::size_t SerialService::buffer_bytes_in_use() const {
  std::size_t total = 0;
  for (const auto& [id, session] : sessions_) total += session->options().buffer_bytes;
  return total;
}

bool SerialService::close(std::string_view id) {
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) return false;
  auto session = it->second;
  sessions_.erase(it);
  std::erase(order_, session->options().id);
  session->close();
  log::info("session ", session->options().id, ": closed ", session->options().port);
  return true;
}

void SerialService::shutdown() {
  auto ids = order_;
  for (const auto& id : ids) close(id);
  udev_.reset();
}

std::vector<PortInfo> SerialService::list_ports() const {
  return enumerate_ports({config_.sysfs_root, config_.dev_root}, config_.ports);
}

std::vector<std::shared_ptr<SerialSession>> SerialService::sessions(const std::shared_ptr<ClientIdentity>& who) const {
  std::vector<std::shared_ptr<SerialSession>> out;
  for (const auto& id : order_) {
    const auto& session = sessions_.at(id);
    if (session->usable_by(who)) out.push_back(session);
  }
  return out;
}

std::shared_ptr<SerialSession> SerialService::session_for_device(const std::string& device) const {
  for (const auto& [id, session] : sessions_) {
    if (session->state() == SessionState::Open && session->options().device == device) return session;
  }
  return nullptr;
}

void SerialService::device_removed(const std::string& devnode) {
  for (const auto& [id, session] : sessions_) {
    if (session->options().device == devnode) session->device_gone("udev: device removed");
  }
}

void SerialService::forget_old_disconnected() {
  std::size_t kept = 0;
  for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
    if (sessions_.at(*it)->state() != SessionState::Disconnected) continue;
    if (++kept > kMaxDisconnectedKept) {
      const auto id = *it;
      close(id);
      return;  // one per open is enough to stay bounded
    }
  }
}

}  // namespace mcpud::serial
