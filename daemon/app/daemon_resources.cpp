// SPDX-License-Identifier: MIT
// Status, activity and log as MCP resources.
#include "daemon_resources.hpp"

#include <array>

namespace mcpud::app {
namespace {

using nlohmann::json;

struct Resource {
  std::string_view name;
  std::string_view description;
};
constexpr std::array<Resource, 5> kResources = {{
    {"status",
     "The daemon: device, version, uptime, listeners, connected clients, uplinks and bridges; subscribe for each "
     "change"},
    {"activity", "The latest tool calls of every client (kept while someone subscribes); subscribe for each new one"},
    {"log", "The latest lines of the daemon's log; subscribe for each new one"},
    {"buses",
     "The configured I2C and SPI devices: what each is, what clients may do with it, whether a kernel driver owns "
     "it, and the last transfer a client made with it; subscribe for each new one"},
    {"safety",
     "The emergency stop's state and the calls waiting for a human's approval (tool, caller, expiry; their arguments "
     "only where a human decides); subscribe for each change"},
}};

}  // namespace

json DaemonResources::list() const {
  json out = json::array();
  for (const auto& resource : kResources) {
    out.push_back({{"uri", std::string(kDaemonUriPrefix) + std::string(resource.name)},
                   {"name", "daemon " + std::string(resource.name)},
                   {"description", resource.description},
                   {"mimeType", "application/json"},
                   {"annotations", {{"audience", {"user"}}}}});
  }
  return out;
}

bool DaemonResources::has(std::string_view uri) const {
  if (!uri.starts_with(kDaemonUriPrefix)) return false;
  const auto name = uri.substr(kDaemonUriPrefix.size());
  return std::any_of(kResources.begin(), kResources.end(), [&](const auto& r) { return r.name == name; });
}

Result<json> DaemonResources::read(std::string_view uri) const {
  const auto name = uri.starts_with(kDaemonUriPrefix) ? uri.substr(kDaemonUriPrefix.size()) : std::string_view();
  if (name == "status") return status();
  if (name == "activity") return activity_.snapshot();
  if (name == "log") return log_.snapshot();
  if (name == "buses") return ctx_.buses();
  if (name == "safety" && safety_) return without_arguments(safety_->state());
  auto missing = Error::domain(DomainError::ResourceNotFound, "Resource not found: " + std::string(uri));
  missing.uri = uri;
  return std::unexpected(std::move(missing));
}

json DaemonResources::status() const {
  const auto uptime = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started_);
  return {{"device", ctx_.device()},    {"version", ctx_.version},       {"board", ctx_.board()},
          {"uptime_s", uptime.count()}, {"listeners", ctx_.listeners()}, {"clients", ctx_.clients()},
          {"uplinks", ctx_.uplinks()},  {"bridges", ctx_.bridges()},     {"token_required", ctx_.token_required()}};
}

}  // namespace mcpud::app
