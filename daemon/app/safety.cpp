// SPDX-License-Identifier: MIT
// The gate, the emergency stop, approvals and their audit.
#include "safety.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "mcpud/core/call_cancellation.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/core/regular_file.hpp"

namespace mcpud::app {

namespace {

using nlohmann::json;

constexpr const char* kResetHint = "a human resets it with `mcpuctl estop --reset` or the dashboard";

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool asks_dry_run(const json& arguments) {
  const auto found = arguments.find(std::string(kDryRunArgument));
  return found != arguments.end() && found->is_boolean() && found->get<bool>();
}

// "ok", or the error's stable name ("ESTOP_ACTIVE"), or "error <code>".
std::string outcome_of(const ToolResult& result) {
  if (result) return "ok";
  if (!result.error().name.empty()) return result.error().name;
  return "error " + std::to_string(result.error().code);
}

std::string who_called(const Caller& caller) {
  return caller.label().empty() ? caller.door : caller.door + " " + caller.label();
}

}  // namespace

Safety::Safety(boost::asio::io_context& io, ToolRegistry& registry, EventHub& events, pins::PinService& board)
    : io_(io), registry_(registry), events_(events), board_(board), audit_(events, 1000) {
  subscription_ = events_.subscribe([this](const Event& event) { on_event(event); });
  registry_.set_gate(this);
}

Safety::~Safety() {
  registry_.set_gate(nullptr);
  registry_.remove_owner(kSafetyOwner);
}

void Safety::apply(const config::SafetyConfig& config) {
  config_ = config;
  audit_.set_capacity(config_.audit_records);
  if (!loaded_) {
    loaded_ = true;
    // After the board's tools, so that a host reading only the first page of
    // tools/list sees the board.
    register_tool();
    load_latch();
    check_estop_pin_at_start();
  }
  if (stop_state_ == StopState::Latched) drive_outputs_safe("the emergency stop is latched");
}

// An edge is what stops the board while it runs; a button already pressed (or
// an input that cannot be read) when mcpud starts has no edge to give. Either
// latches the stop: the fail-safe reading of a safety input.
void Safety::check_estop_pin_at_start() {
  if (config_.estop_pin.empty()) return;
  auto* pin = board_.table().find(std::string_view(config_.estop_pin));
  if (!pin || !pin->input) return;  // the configuration's check names a missing estop_pin
  const auto level = pin->input->read();
  if (!level) {
    emergency_stop("estop_pin " + config_.estop_pin, "the input cannot be read at start: " + level.error().message);
  } else if (*level == (config_.estop_active == "high")) {
    emergency_stop("estop_pin " + config_.estop_pin, "input is " + config_.estop_active + " at start");
  }
}

void Safety::stop() {
  while (!pending_.empty()) {
    decide(pending_.begin()->first, Error::domain(DomainError::ApprovalDenied, "mcpud is stopping"), "mcpud");
  }
  subscription_.reset();
}

void Safety::register_tool() {
  // Not destructive: it only ever moves the board towards safe, so a host may
  // call it without asking anyone first.
  auto tool = make_tool(
      {.owner = kSafetyOwner,
       .name = "emergency_stop",
       .title = "Emergency stop",
       .description = "Emergency stop: drives every output to its safe value, stops bridged devices and refuses "
                      "every call that actuates until a human resets it (not possible from here). Anyone may call "
                      "it, at any time.",
       .input_schema = {{"type", "object"}, {"properties", {{"reason", {{"type", "string"}, {"maxLength", 512}}}}}},
       .output_schema = {{"type", "object"},
                         {"properties", {{"estop", {{"type", "string"}}}, {"since_ms", {{"type", "integer"}}}}},
                         {"required", {"estop"}}},
       .hints = {.destructive = false, .idempotent = true, .open_world = false, .from = HintsFrom::Mcpud}});
  tool.invoke = [this](const Caller& caller, json&& arguments, ToolReply&& reply) {
    // Reset is a human's decision: no argument, tool or door of MCP reaches it.
    if (arguments.contains("reset")) {
      reply(std::unexpected(Error::domain(DomainError::NotAuthorized,
                                          std::string("emergency_stop cannot reset the stop; ") + kResetHint)));
      return;
    }
    const std::string reason = arguments.value("reason", "the emergency_stop tool");
    emergency_stop(who_called(caller), reason);
    reply(json{{"estop", "active"}, {"since_ms", latch_.since_ms}, {"reset", kResetHint}});
  };
  (void)registry_.add(std::move(tool));
}

void Safety::on_event(const Event& event) {
  if (event.kind == EventKind::PinEvent) {
    on_pin_edge(event.source, event.data.value("type", ""));
  } else if (event.kind == EventKind::SafetyAction) {
    json record = event.data;
    record["kind"] = "safety_action";
    audit_.append(std::move(record));
  }
}

void Safety::on_pin_edge(const std::string& pin, const std::string& type) {
  if (!config_.estop_pin.empty() && pin == config_.estop_pin) {
    const bool active_high = config_.estop_active == "high";
    if (type == (active_high ? "rising" : "falling")) {
      emergency_stop("estop_pin " + pin, "input went " + config_.estop_active);
    }
  }
  if (!config_.approve_pin.empty() && pin == config_.approve_pin && type == "rising" && !pending_.empty()) {
    decide(pending_.begin()->first, std::nullopt, "approve_pin " + pin);
  }
}

// ---- the gate

void Safety::admit(GatedCall call, ToolReply reply, GateProceed proceed) {
  const bool dry_run = asks_dry_run(call.arguments);
  auto record = call_record(call);
  record["dry_run"] = dry_run;
  if (stop_state_ == StopState::Latched) {
    audited(std::move(record), std::move(reply))(std::unexpected(estop_error()));
    return;
  }
  const bool approval = needs_approval(call);
  if (dry_run) {
    record["needs_approval"] = approval;
    if (call.native_dry_run) {
      // The tool checks its own limits; the answer says what the gate adds.
      auto answer = [approval, reply = audited(std::move(record), std::move(reply))](ToolResult&& result) {
        if (result && result->is_object()) (*result)["needs_approval"] = approval;
        reply(std::move(result));
      };
      proceed(call.caller, std::move(call.arguments), ToolReply(std::move(answer)));
      return;
    }
    call.arguments.erase(std::string(kDryRunArgument));
    audited(std::move(record), std::move(reply))(json{{"dry_run", true},
                                                      {"tool", call.tool->name},
                                                      {"arguments", call.arguments},
                                                      {"needs_approval", approval},
                                                      {"would", approval ? "wait for a human's approval" : "run"}});
    return;
  }
  if (approval) {
    wait_for_approval(std::move(call), std::move(reply), std::move(proceed));
    return;
  }
  auto caller = call.caller;
  proceed(caller, std::move(call.arguments), audited(std::move(record), std::move(reply)));
}

bool Safety::needs_approval(const GatedCall& call) const {
  const auto& name = call.tool->name;
  for (const auto& pattern : config_.confirm_tools) {
    if (wildcard_match(pattern, name)) return true;
  }
  // An output marked confirm = true, named by a pin write.
  if (call.tool->owner != "pins" || (name != "gpio_write" && name != "pwm_write")) return false;
  // The pin by its number (`pin`) or its name (`name`).
  for (const char* key : {"pin", "name"}) {
    const auto pin = call.arguments.find(key);
    if (pin == call.arguments.end()) continue;
    auto found = board_.table().find(*pin);
    if (found && (*found)->config.confirm) return true;
  }
  return false;
}

void Safety::wait_for_approval(GatedCall call, ToolReply reply, GateProceed proceed) {
  if (pending_.size() >= config_.max_pending_approvals) {
    auto record = call_record(call);
    audited(std::move(record), std::move(reply))(std::unexpected(
        Error::domain(DomainError::Busy, std::to_string(pending_.size()) +
                                             " calls already wait for approval ([safety] "
                                             "max_pending_approvals = " +
                                             std::to_string(config_.max_pending_approvals) + "); try again later")));
    return;
  }
  const auto id = next_approval_++;
  Pending waiting{std::move(call),    std::move(reply),
                  std::move(proceed), std::make_unique<boost::asio::steady_timer>(io_),
                  now_ms(),           0};
  waiting.expires_ms = waiting.requested_ms + config_.approval_timeout_ms;
  waiting.timer->expires_after(std::chrono::milliseconds(config_.approval_timeout_ms));
  waiting.timer->async_wait([this, id](const boost::system::error_code& ec) {
    if (ec || !pending_.contains(id)) return;
    decide(id,
           Error::domain(DomainError::ApprovalTimeout, "nobody approved the call (approval " + std::to_string(id) +
                                                           ") within " + std::to_string(config_.approval_timeout_ms) +
                                                           " ms ([safety] approval_timeout_ms)"),
           "timeout");
  });
  // The client that asked may leave, or cancel the call, before a human
  // decides: an approval then would actuate for nobody, with nobody left to
  // hear the outcome or release what the call drove. The wait ends as denied.
  if (auto* cancellation = CallCancellation::current()) {
    cancellation->on_cancel([alive = std::weak_ptr<bool>(alive_), this, id] {
      if (alive.expired()) return;
      decide(id,
             Error::domain(DomainError::ApprovalDenied,
                           "the client that asked left or cancelled the call (approval " + std::to_string(id) + ")"),
             "client gone");
    });
  }
  auto record = call_record(waiting.call);
  record["kind"] = "approval";
  record["action"] = "requested";
  record["approval"] = id;
  audit_.append(std::move(record));
  log::info("safety", "approval ", id, ": ", waiting.call.tool->name, " ", waiting.call.arguments.dump(),
            " waits for a human (mcpuctl approve ", id, ")");
  pending_.emplace(id, std::move(waiting));
  changed();
}

void Safety::decide(std::uint64_t id, std::optional<Error> refusal, std::string_view by) {
  auto node = pending_.extract(id);
  if (node.empty()) return;
  auto& waiting = node.mapped();
  waiting.timer->cancel();
  changed();
  audit_.append({{"kind", "approval"},
                 {"action", refusal ? (refusal->name == "APPROVAL_TIMEOUT" ? "timed_out" : "denied") : "approved"},
                 {"approval", id},
                 {"tool", waiting.call.tool->name},
                 {"by", std::string(by)}});
  auto record = call_record(waiting.call);
  record["approval"] = id;
  auto reply = audited(std::move(record), std::move(waiting.reply));
  if (refusal) {
    reply(std::unexpected(std::move(*refusal)));
    return;
  }
  auto caller = waiting.call.caller;
  waiting.proceed(caller, std::move(waiting.call.arguments), std::move(reply));
}

Result<void> Safety::approve(std::uint64_t id, std::string_view by) {
  if (!pending_.contains(id)) {
    return std::unexpected(
        Error::domain(DomainError::ResourceNotFound, "no call waits for approval under id " + std::to_string(id)));
  }
  decide(id, std::nullopt, by);
  return {};
}

Result<void> Safety::deny(std::uint64_t id, std::string_view by) {
  if (!pending_.contains(id)) {
    return std::unexpected(
        Error::domain(DomainError::ResourceNotFound, "no call waits for approval under id " + std::to_string(id)));
  }
  decide(id,
         Error::domain(DomainError::ApprovalDenied,
                       "a human denied the call (approval " + std::to_string(id) + ", " + std::string(by) + ")"),
         by);
  return {};
}

// ---- the emergency stop

void Safety::emergency_stop(std::string_view by, std::string_view reason) {
  if (stop_state_ == StopState::Clear) {
    stop_state_ = StopState::Latched;
    latch_ = {now_ms(), std::string(by), std::string(reason)};
    save_latch();
  }
  log::warn("safety", "EMERGENCY STOP by ", by, ": ", reason, "; ", kResetHint);
  while (!pending_.empty()) decide(pending_.begin()->first, estop_error(), by);
  drive_outputs_safe(reason);
  audit_.append({{"kind", "estop"}, {"action", "stop"}, {"by", std::string(by)}, {"reason", std::string(reason)}});
  stop_bridged_devices();
  changed();
}

void Safety::reset_emergency_stop(std::string_view by) {
  if (stop_state_ == StopState::Clear) return;
  stop_state_ = StopState::Clear;
  latch_ = {};
  std::error_code ignored;
  std::filesystem::remove(std::filesystem::path(config_.state_dir) / kEstopStateFile, ignored);
  log::warn("safety", "emergency stop reset by ", by);
  audit_.append({{"kind", "estop"}, {"action", "reset"}, {"by", std::string(by)}});
  changed();
}

void Safety::drive_outputs_safe(std::string_view reason) {
  log::info("safety", "outputs to their safe values: ", reason);
  // The guard first, so that it forgets leases, timers and holders (and says
  // so in a SafetyAction); then every output with a safe value, guarded or not.
  board_.guard().release_all(std::string(reason));
  board_.table().drive_safe_values();
}

void Safety::stop_bridged_devices() {
  std::vector<std::string> stops;
  for (const auto& tool : registry_.tools()) {
    if (tool->name != "emergency_stop" && is_emergency_stop(tool->name)) stops.push_back(tool->name);
  }
  for (const auto& name : stops) {
    registry_.call(Caller{.door = "safety", .peer = "mcpud"}, name, json::object(), [this, name](ToolResult result) {
      audit_.append({{"kind", "estop"}, {"action", "device_stop"}, {"tool", name}, {"outcome", outcome_of(result)}});
    });
  }
}

Error Safety::estop_error() const {
  return Error::domain(DomainError::EstopActive, "the emergency stop is active (by " + latch_.by + ": " +
                                                     latch_.reason + "); nothing actuates until " + kResetHint);
}

json Safety::state() const {
  json estop = {{"active", stop_state_ == StopState::Latched}};
  if (stop_state_ == StopState::Latched) {
    estop["since_ms"] = latch_.since_ms;
    estop["by"] = latch_.by;
    estop["reason"] = latch_.reason;
  }
  json pending = json::array();
  for (const auto& [id, waiting] : pending_) {
    pending.push_back({{"id", id},
                       {"tool", waiting.call.tool->name},
                       {"arguments", waiting.call.arguments},
                       {"door", waiting.call.caller.door},
                       {"peer", waiting.call.caller.peer},
                       {"client", waiting.call.caller.name},
                       {"requested_ms", waiting.requested_ms},
                       {"expires_ms", waiting.expires_ms}});
  }
  return {{"estop", std::move(estop)}, {"pending", std::move(pending)}, {"max_pending", config_.max_pending_approvals}};
}

void Safety::changed() { events_.publish({EventKind::SafetyChanged, "safety", without_arguments(state())}); }

// ---- the latch on disk

void Safety::save_latch() const {
  const std::filesystem::path dir(config_.state_dir);
  const auto file = dir / kEstopStateFile;
  const auto temporary = dir / (std::string(kEstopStateFile) + ".new");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << json{{"since_ms", latch_.since_ms}, {"by", latch_.by}, {"reason", latch_.reason}}.dump() << "\n";
    out.flush();
    if (!out) {
      log::error("safety", "cannot write ", temporary.string(),
                 ": the emergency stop will not survive a restart (check [safety] state_dir)");
      return;
    }
  }
  std::filesystem::rename(temporary, file, ec);
  if (ec) log::error("safety", "cannot write ", file.string(), ": ", ec.message());
}

void Safety::load_latch() {
  const auto file = std::filesystem::path(config_.state_dir) / kEstopStateFile;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return;
  auto text = read_regular_file(file.string(), 64 * 1024);
  const json saved = text ? json::parse(*text, nullptr, false) : json();
  // A latch file that cannot be read still latches: erring towards stopped.
  stop_state_ = StopState::Latched;
  latch_ = {saved.is_object() ? saved.value("since_ms", now_ms()) : now_ms(),
            saved.is_object() ? saved.value("by", "unknown") : "unknown",
            saved.is_object() ? saved.value("reason", "") : "unreadable " + file.string()};
  log::warn("safety", "the emergency stop is latched since before this start (by ", latch_.by, ": ", latch_.reason,
            "); ", kResetHint);
}

// ---- audit records

json Safety::call_record(const GatedCall& call) {
  // Members placed one by one: an initializer list would build each as a
  // two-element array first, on the path of every actuating call.
  json record(json::value_t::object);
  auto& members = record.get_ref<json::object_t&>();
  members.emplace("kind", "call");
  members.emplace("door", call.caller.door);
  members.emplace("peer", call.caller.peer);
  members.emplace("client", call.caller.name);
  members.emplace("session", session_of(call.caller.identity));
  members.emplace("tool", call.tool->name);
  members.emplace("arguments", call.arguments);
  return record;
}

namespace {

// Completes `record` with the call's outcome and appends it, then answers. A
// ToolReply is called once, but through a const call operator: the record is
// mutable so that it moves into the audit rather than being copied on the hot
// path.
struct AuditedReply {
  AuditLog* audit;
  mutable json record;
  ToolReply reply;

  void operator()(ToolResult&& result) const {
    record["outcome"] = outcome_of(result);
    if (!result) record["message"] = result.error().message;
    audit->append(std::move(record));
    reply(std::move(result));
  }
};

}  // namespace

ToolReply Safety::audited(json record, ToolReply reply) {
  return AuditedReply{&audit_, std::move(record), std::move(reply)};
}

std::uint64_t Safety::session_of(const std::shared_ptr<ClientIdentity>& identity) {
  if (!identity) return 0;
  const auto [it, added] = sessions_.try_emplace(identity.get(), next_session_);
  if (added) {
    ++next_session_;
    identity->when_gone(this, [alive = std::weak_ptr<bool>(alive_), this, key = identity.get()] {
      if (!alive.expired()) sessions_.erase(key);
    });
  }
  return it->second;
}

}  // namespace mcpud::app
