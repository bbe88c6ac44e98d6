// SPDX-License-Identifier: MIT
// The behaviour behind io.mcpud.Daemon1's methods and properties.
#include "mcpud/dbus/control.hpp"

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "mcpud/core/json_rpc.hpp"
#include "mcpud/dbus/variant_json.hpp"

namespace mcpud::dbus {
namespace {

using nlohmann::json;

constexpr std::string_view kBridgeOwnerPrefix = "bridge:";
constexpr const char* kSerialListTool = "serial_list_sessions";
// Bounds on CallTool's arguments, as the line transports bound a request.
constexpr std::size_t kMaxArgumentsBytes = 1024 * 1024;
constexpr std::size_t kMaxArgumentsDepth = 64;

BusError error(std::string_view name, std::string message) {
  return {std::string(kErrorPrefix) + std::string(name), std::move(message)};
}

bool in_admin_group(uid_t uid) {
  const group* admin = ::getgrnam(kAdminGroup);
  const passwd* user = ::getpwuid(uid);
  if (admin == nullptr || user == nullptr) return false;
  const gid_t admin_gid = admin->gr_gid;
  int count = 64;
  std::vector<gid_t> groups(static_cast<std::size_t>(count));
  if (::getgrouplist(user->pw_name, user->pw_gid, groups.data(), &count) < 0) {
    groups.resize(static_cast<std::size_t>(count));
    if (::getgrouplist(user->pw_name, user->pw_gid, groups.data(), &count) < 0) return false;
  }
  groups.resize(static_cast<std::size_t>(count));
  return std::find(groups.begin(), groups.end(), admin_gid) != groups.end();
}

Dict annotations_of(const Tool& tool, bool user_only) {
  const auto& hints = tool.annotations;
  const char* from = hints.from == HintsFrom::Mcpud ? "mcpud" : hints.from == HintsFrom::Device ? "device" : "nobody";
  Dict dict{{"user_only", sdbus::Variant{user_only}},
            {"read_only", sdbus::Variant{hints.read_only}},
            {"destructive", sdbus::Variant{hints.destructive}},
            {"idempotent", sdbus::Variant{hints.idempotent}},
            {"open_world", sdbus::Variant{hints.open_world}},
            {"hints_from", sdbus::Variant{std::string(from)}},
            {"title", sdbus::Variant{tool.title}},
            {"owner", sdbus::Variant{tool.owner}}};
  if (tool.annotations.polling_interval_ms) {
    dict.emplace("polling_interval_ms", sdbus::Variant{*tool.annotations.polling_interval_ms});
  }
  return dict;
}

// The serial tool set answers {sessions: [...]} (or a bare array) of objects
// with session_id and port; everything else goes into the details.
std::vector<SessionRow> session_rows(const json& result) {
  const json& list = result.is_object() && result.contains("sessions") ? result["sessions"] : result;
  std::vector<SessionRow> rows;
  if (!list.is_array()) return rows;
  for (const auto& entry : list) {
    if (!entry.is_object()) continue;
    json details = entry;
    const json id = details.value("session_id", details.value("id", json("")));
    const std::string port = details.value("port", "");
    details.erase("session_id");
    details.erase("id");
    details.erase("port");
    rows.push_back(
        sdbus::make_struct(id.is_string() ? id.get<std::string>() : id.dump(), port, dict_from_json(details)));
  }
  return rows;
}

}  // namespace

std::string error_name_for(std::string_view stable_name) {
  std::string name(kErrorPrefix);
  bool upper = true;
  for (const char c : stable_name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                  : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    upper = false;
  }
  return name;
}

bool may_call_user_only_tools(const BusCaller& caller) {
  if (caller.uid == 0 || caller.uid == ::geteuid()) return true;
  return caller.uid != static_cast<uid_t>(-1) && in_admin_group(caller.uid);
}

BusError to_bus_error(const Error& e) {
  if (!e.name.empty()) return {error_name_for(e.name), e.message};
  switch (e.code) {
    case rpc_code::kMethodNotFound:
      return error("UnknownTool", e.message);
    case rpc_code::kInvalidParams:
    case rpc_code::kInvalidRequest:
    case rpc_code::kParseError:
      return error("InvalidArguments", e.message);
    default:
      return error("Internal", e.message);
  }
}

Control::Control(ToolRegistry& registry, ControlSource source) : registry_(registry), source_(std::move(source)) {}

std::uint64_t Control::uptime_s() const {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started_).count());
}

Dict Control::info() const {
  return {{"device", sdbus::Variant{source_.device()}},
          {"version", sdbus::Variant{source_.version}},
          {"board", sdbus::Variant{source_.board()}},
          {"uptime_s", sdbus::Variant{uptime_s()}},
          {"pin_count", sdbus::Variant{static_cast<std::uint32_t>(source_.pin_count())}},
          {"tool_count", sdbus::Variant{static_cast<std::uint32_t>(registry_.size())}},
          {"client_count", sdbus::Variant{client_count()}},
          {"listeners", sdbus::Variant{source_.listeners()}},
          {"bus", sdbus::Variant{source_.bus}}};
}

std::vector<ToolRow> Control::tools(bool with_user_tools) const {
  std::vector<ToolRow> rows;
  for (const auto& tool : registry_.tools()) {
    const bool user_only = registry_.is_user_only(*tool);
    if (user_only && !with_user_tools) continue;
    rows.push_back(sdbus::make_struct(tool->name, tool->description, rpc::dump(tool->input_schema),
                                      annotations_of(*tool, user_only)));
  }
  return rows;
}

void Control::call_tool(const std::function<BusCaller()>& caller, const std::string& name,
                        const std::string& arguments_json, BusReply<std::string> reply) const {
  json arguments = json::object();
  if (arguments_json.size() > kMaxArgumentsBytes) {
    reply(std::unexpected(
        error("InvalidArguments", "arguments_json: longer than " + std::to_string(kMaxArgumentsBytes) + " bytes")));
    return;
  }
  if (rpc::nesting_depth(arguments_json) > kMaxArgumentsDepth) {
    reply(std::unexpected(error(
        "InvalidArguments", "arguments_json: nested deeper than " + std::to_string(kMaxArgumentsDepth) + " levels")));
    return;
  }
  if (!arguments_json.empty()) {
    arguments = json::parse(arguments_json, nullptr, false);
    if (arguments.is_discarded() || !arguments.is_object()) {
      reply(std::unexpected(error("InvalidArguments", "arguments_json: expected a JSON object")));
      return;
    }
  }
  Caller who{.door = "dbus", .identity = bus_identity_};
  if (registry_.requires_user_tools(name)) {
    const BusCaller bus = caller();
    who.peer = "uid " + std::to_string(bus.uid);
    who.user_tools = may_call_user_only_tools(bus);
    who.refusal = who.peer + " is neither root nor a member of group '" + kAdminGroup + "'";
  }
  registry_.call(
      who, name, std::move(arguments),
      [reply = std::move(reply)](ToolResult result) {
        if (!result) {
          reply(std::unexpected(to_bus_error(result.error())));
          return;
        }
        reply(rpc::dump(*result));
      },
      "arguments");
}

void Control::ask(const std::string& text, BusReply<std::string> reply) const {
  if (text.size() > kMaxArgumentsBytes) {
    reply(std::unexpected(
        error("InvalidArguments", "text: longer than " + std::to_string(kMaxArgumentsBytes) + " bytes")));
    return;
  }
  if (!source_.ask) {
    reply(std::unexpected(
        to_bus_error(Error::domain(DomainError::UplinkNotConfigured, "no services uplink in this daemon"))));
    return;
  }
  source_.ask(text, [reply = std::move(reply)](Result<std::string> answer) {
    if (!answer) {
      reply(std::unexpected(to_bus_error(answer.error())));
      return;
    }
    reply(std::move(*answer));
  });
}

std::vector<BridgeRow> Control::bridges() const {
  std::map<std::string, std::uint32_t> tool_counts;
  for (const auto& tool : registry_.tools()) {
    if (tool->owner.starts_with(kBridgeOwnerPrefix)) ++tool_counts[tool->owner.substr(kBridgeOwnerPrefix.size())];
  }
  std::vector<BridgeRow> rows;
  for (const auto& bridge : source_.bridges ? source_.bridges() : json::array()) {
    const std::string id = bridge.value("id", "");
    json details = bridge;
    details.erase("id");
    details.erase("tools");  // the row's count
    rows.push_back(sdbus::make_struct(id, tool_counts[id], dict_from_json(details)));
    tool_counts.erase(id);
  }
  // Tools of a bridge no status names (a daemon without a bridge set).
  for (const auto& [id, count] : tool_counts) rows.push_back(sdbus::make_struct(id, count, Dict{}));
  return rows;
}

void Control::serial_sessions(BusReply<std::vector<SessionRow>> reply) const {
  if (!registry_.find(kSerialListTool)) {
    reply(std::vector<SessionRow>{});  // no serial tool set: no sessions
    return;
  }
  // As the daemon itself (no identity): the operator sees every client's sessions.
  registry_.call(Caller{.door = "dbus"}, kSerialListTool, json::object(),
                 [reply = std::move(reply)](ToolResult result) {
                   if (!result) {
                     reply(std::unexpected(to_bus_error(result.error())));
                     return;
                   }
                   reply(session_rows(*result));
                 });
}

BusResult<void> Control::reload() const {
  if (auto reloaded = source_.reload(); !reloaded) return std::unexpected(error("ReloadFailed", reloaded.error()));
  return {};
}

namespace {

// "dbus uid 1000": who did it, in the audit.
std::string bus_actor(const BusCaller& caller) { return "dbus uid " + std::to_string(caller.uid); }

BusResult<void> admin_only(const BusCaller& caller, std::string_view what) {
  if (may_call_user_only_tools(caller)) return {};
  return std::unexpected(to_bus_error(
      Error::domain(DomainError::NotAuthorized, std::string(what) + " needs root, mcpud's own user or " + "group '" +
                                                    kAdminGroup + "'; " + bus_actor(caller) + " is none of them")));
}

BusError no_safety() { return error("Internal", "this daemon has no safety control"); }

BusResult<void> from_result(const Result<void>& result) {
  if (!result) return std::unexpected(to_bus_error(result.error()));
  return {};
}

}  // namespace

BusResult<void> Control::emergency_stop(const BusCaller& caller, const std::string& reason) const {
  if (!source_.safety) return std::unexpected(no_safety());
  source_.safety->emergency_stop(bus_actor(caller), reason.empty() ? "mcpuctl estop" : reason);
  return {};
}

BusResult<void> Control::reset_emergency_stop(const BusCaller& caller) const {
  if (!source_.safety) return std::unexpected(no_safety());
  if (auto allowed = admin_only(caller, "resetting the emergency stop"); !allowed) return allowed;
  source_.safety->reset_emergency_stop(bus_actor(caller));
  return {};
}

BusResult<std::string> Control::safety_state() const {
  if (!source_.safety) return std::unexpected(no_safety());
  return rpc::dump(source_.safety->state());
}

BusResult<void> Control::approve(const BusCaller& caller, std::uint64_t id) const {
  if (!source_.safety) return std::unexpected(no_safety());
  if (auto allowed = admin_only(caller, "approving a call"); !allowed) return allowed;
  return from_result(source_.safety->approve(id, bus_actor(caller)));
}

BusResult<void> Control::deny(const BusCaller& caller, std::uint64_t id) const {
  if (!source_.safety) return std::unexpected(no_safety());
  if (auto allowed = admin_only(caller, "denying a call"); !allowed) return allowed;
  return from_result(source_.safety->deny(id, bus_actor(caller)));
}

BusResult<std::string> Control::audit(std::uint64_t after) const {
  if (!source_.safety) return std::unexpected(no_safety());
  return rpc::dump(source_.safety->audit_since(after));
}

}  // namespace mcpud::dbus
