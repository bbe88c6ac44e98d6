// SPDX-License-Identifier: MIT
// Session bookkeeping, the allow list and hot-plug.
#include "mcpud/serial/serial_service.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "mcpud/serial/serial_log.hpp"

namespace mcpud::serial {
namespace {

// Disconnected sessions are kept so the client learns why; this many at most.
constexpr std::size_t kMaxDisconnectedKept = 32;

bool glob_matches(const std::vector<std::string>& globs, const std::string& path) {
  return std::any_of(globs.begin(), globs.end(),
                     [&](const auto& glob) { return ::fnmatch(glob.c_str(), path.c_str(), FNM_PATHNAME) == 0; });
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

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

Result<void> SerialService::check_allowed(const std::string& port, const std::string& device) const {
  if (config_.allowed_ports.empty()) return {};
  if (glob_matches(config_.allowed_ports, port) || glob_matches(config_.allowed_ports, device)) return {};
  return std::unexpected(Error::domain(DomainError::NotAuthorized,
                                       port + " is not an allowed port (allowed: " + join(config_.allowed_ports) +
                                           "; set by SERIAL_MCP_ALLOWED_PORTS or [serial] allowed_ports)"));
}

Result<std::shared_ptr<SerialSession>> SerialService::open(const OpenRequest& request) {
  // "ttyUSB0" means /dev/ttyUSB0.
  const std::string port = request.port.starts_with('/') ? request.port : "/dev/" + request.port;
  std::error_code ec;
  const std::string device = std::filesystem::canonical(port, ec).string();
  if (auto allowed = check_allowed(port, ec ? port : device); !allowed) return std::unexpected(allowed.error());
  if (ec) {
    return std::unexpected(Error::domain(DomainError::OpenError, port + ": no such device (is it plugged in? see "
                                                                        "serial_list_ports)"));
  }
  if (auto holder = session_for_device(device); !holder.empty()) {
    return std::unexpected(Error::domain(DomainError::PortAlreadyInUse, port + " is already open in serial session " +
                                                                            holder + " (serial_disconnect it first)"));
  }
  const auto open_count = std::count_if(sessions_.begin(), sessions_.end(),
                                        [](const auto& s) { return s.second->state() == SessionState::Open; });
  if (static_cast<std::size_t>(open_count) >= config_.max_sessions) {
    return std::unexpected(Error::domain(
        DomainError::Busy,
        "too many open serial sessions (" + std::to_string(config_.max_sessions) + "); serial_disconnect one first"));
  }
  auto opened = io::open_serial_port(port, request.settings);
  if (!opened) return std::unexpected(opened.error());
  const auto baud = opened->settings.baud;
  SessionOptions options{new_session_id(),    port, device, opened->settings, request.timeout, request.newline,
                         request.buffer_bytes};
  auto session = std::make_shared<SerialSession>(io_, std::move(opened->fd), std::move(options), events_);
  session->start();
  sessions_.emplace(session->options().id, session);
  order_.push_back(session->options().id);
  log::info("session ", session->options().id, ": opened ", port, " at ", baud, " baud");
  forget_old_disconnected();
  return session;
}

Result<std::shared_ptr<SerialSession>> SerialService::find(std::string_view id) const {
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) {
    return std::unexpected(Error::domain(
        DomainError::UnknownSession, "no serial session with id '" + std::string(id) + "' (see serial_list_sessions)"));
  }
  return it->second;
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

std::vector<std::shared_ptr<SerialSession>> SerialService::sessions() const {
  std::vector<std::shared_ptr<SerialSession>> out;
  for (const auto& id : order_) out.push_back(sessions_.at(id));
  return out;
}

std::string SerialService::session_for_device(const std::string& device) const {
  for (const auto& [id, session] : sessions_) {
    if (session->state() == SessionState::Open && session->options().device == device) return id;
  }
  return {};
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
