// SPDX-License-Identifier: MIT
// A human's authority over the board: the gate every actuating call passes
// (the emergency stop's latch, calls that wait for approval, dry runs), the
// emergency stop itself (the emergency_stop tool, [safety] estop_pin, and
// what mcpuctl and the dashboard ask for), approvals (mcpuctl, the dashboard,
// [safety] approve_pin) and the audit of it all (docs/safety.md).
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/steady_timer.hpp>

#include "mcpud/core/audit_log.hpp"
#include "mcpud/core/call_gate.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/safety_control.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/pins/pin_service.hpp"
#include "safety_config.hpp"

namespace mcpud::app {

inline constexpr const char* kSafetyOwner = "safety";
// Where the latch is kept under [safety] state_dir.
inline constexpr const char* kEstopStateFile = "estop.json";

class Safety final : public CallGate, public SafetyControl {
 public:
  // Borrows all four; they must outlive this object. Registers emergency_stop
  // and becomes `registry`'s gate.
  Safety(boost::asio::io_context& io, ToolRegistry& registry, EventHub& events, pins::PinService& board);
  ~Safety() override;
  Safety(const Safety&) = delete;
  Safety& operator=(const Safety&) = delete;

  // Takes [safety] (at start and on every reload). The first call reads the
  // latch from state_dir: a stop latched before a restart holds. While latched,
  // outputs are driven safe again after every (re)build of the pins.
  void apply(const config::SafetyConfig& config);
  // Answers every waiting call (the daemon stops).
  void stop();

  AuditLog& audit() { return audit_; }

  // CallGate
  void admit(GatedCall call, ToolReply reply, GateProceed proceed) override;

  // SafetyControl
  nlohmann::json state() const override;
  void emergency_stop(std::string_view by, std::string_view reason) override;
  void reset_emergency_stop(std::string_view by) override;
  Result<void> approve(std::uint64_t id, std::string_view by) override;
  Result<void> deny(std::uint64_t id, std::string_view by) override;
  nlohmann::json audit_since(std::uint64_t after) const override { return audit_.since(after); }

 private:
  enum class StopState { Clear, Latched };
  struct Latch {
    std::int64_t since_ms = 0;
    std::string by;
    std::string reason;
  };
  struct Pending {
    GatedCall call;
    ToolReply reply;
    GateProceed proceed;
    std::unique_ptr<boost::asio::steady_timer> timer;
    std::int64_t requested_ms = 0;
    std::int64_t expires_ms = 0;
  };

  void register_tool();
  void on_event(const Event& event);
  void check_estop_pin_at_start();
  void on_pin_edge(const std::string& pin, const std::string& type);
  bool needs_approval(const GatedCall& call) const;
  void wait_for_approval(GatedCall call, ToolReply reply, GateProceed proceed);
  // Ends a waiting call: runs it (approved) or answers `refusal`.
  void decide(std::uint64_t id, std::optional<Error> refusal, std::string_view by);
  // Every output to its safe value: the one place an e-stop (and a latch
  // after a reload) drives outputs.
  void drive_outputs_safe(std::string_view reason);
  void stop_bridged_devices();
  Error estop_error() const;
  // The call's audit record without its outcome.
  nlohmann::json call_record(const GatedCall& call);
  // `reply` that writes the call's audit record (with `outcome`) first.
  ToolReply audited(nlohmann::json record, ToolReply reply);
  std::uint64_t session_of(const std::shared_ptr<ClientIdentity>& identity);
  void save_latch() const;
  void load_latch();
  void changed();

  boost::asio::io_context& io_;
  ToolRegistry& registry_;
  EventHub& events_;
  pins::PinService& board_;
  config::SafetyConfig config_;
  AuditLog audit_;
  EventHub::Subscription subscription_;
  StopState stop_state_ = StopState::Clear;
  Latch latch_;
  bool loaded_ = false;
  std::map<std::uint64_t, Pending> pending_;  // by id: the oldest first
  std::uint64_t next_approval_ = 1;
  std::map<const ClientIdentity*, std::uint64_t> sessions_;
  std::uint64_t next_session_ = 1;
  // Held by the hooks on client identities, which may outlive this object.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace mcpud::app
