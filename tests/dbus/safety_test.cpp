// SPDX-License-Identifier: MIT
// A human's authority over the board, through the real mcpud on a private
// session bus and the real mcpuctl: approvals (mcpuctl, the approve_pin
// button, a timeout), the emergency stop (an MCP client, the estop_pin input,
// mcpuctl; its latch across a restart; reset only by mcpuctl), dry runs, and
// the audit of it all, its gap after the ring overflowed included.
#include <csignal>
#include <filesystem>

#include "bus_daemon.hpp"
#include "ctl_run.hpp"
#include "support/fixtures.hpp"
#include "support/line_client.hpp"

namespace mcpud::it::safety {

using nlohmann::json;

struct SafetyOptions {
  std::string safety;  // more lines of [safety]
  std::string heater;  // more keys of the heater
  // How the simulation drives the e-stop button: looped back from estop_drive,
  // or held at a level from the start.
  std::string estop_sim = R"(sim = { mode = "loopback", from = "estop_drive" })";
};

// The sim board with a heater that needs approval, and two buttons wired
// (looped back in the simulation) to outputs the test drives: one stops
// everything, one approves the oldest waiting call.
std::string safety_config(const std::filesystem::path& state_dir, const SafetyOptions& options = {}) {
  return "device = \"mcpud-sim\"\nboard = \"sim\"\nlisten = [\"127.0.0.1:0\"]\n\n[safety]\nstate_dir = \"" +
         state_dir.string() +
         "\"\nestop_pin = \"estop_button\"\nestop_active = \"high\"\napprove_pin = \"approve_button\"\n" +
         options.safety + R"(

[[pins]]
name = "led"
pin = 2
type = "digital_output"
initial = false
safe_value = false

[[pins]]
name = "heater"
pin = 5
type = "digital_output"
initial = false
safe_value = false
confirm = true
)" + options.heater +
         R"(

[[pins]]
name = "estop_drive"
pin = 6
type = "digital_output"
initial = false
safe_value = false

[[pins]]
name = "estop_button"
pin = 7
type = "digital_input"
)" + options.estop_sim +
         R"(
sampling = { interval_ms = 10, edges = "both" }

[[pins]]
name = "approve_drive"
pin = 8
type = "digital_output"
initial = false

[[pins]]
name = "approve_button"
pin = 9
type = "digital_input"
sim = { mode = "loopback", from = "approve_drive" }
sampling = { interval_ms = 10, edges = "both" }

[[pins]]
name = "fan"
pin = 18
type = "pwm_output"
safe_duty = 0
)";
}

class Safety : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(bus_.address().empty());
    bus_.export_address();
  }

  void start_daemon(const SafetyOptions& options = {}) {
    config_path_ = state_.write_file("mcpud.toml", safety_config(state_dir(), options));
    port_ = daemon_->start_tcp({"--config", config_path_, "--dbus=session"});
    ASSERT_NE(port_, 0);
    ASSERT_TRUE(daemon_->wait_for_log("serving io.mcpud.Daemon1 on the session bus")) << daemon_->log();
  }

  // Stops mcpud and starts it again on the same configuration and state.
  void restart_daemon() {
    daemon_->signal(SIGTERM);
    ASSERT_TRUE(daemon_->wait_exit().has_value());
    daemon_ = std::make_unique<DaemonProcess>();
    port_ = daemon_->start_tcp({"--config", config_path_, "--dbus=session"});
    ASSERT_NE(port_, 0);
    ASSERT_TRUE(daemon_->wait_for_log("serving io.mcpud.Daemon1 on the session bus")) << daemon_->log();
  }

  std::filesystem::path state_dir() const { return state_.path() / "state"; }

  LineClient connect() {
    auto client = LineClient::connect_tcp(port_);
    EXPECT_TRUE(client.has_value());
    return std::move(*client);
  }

  CtlOutput ctl(std::vector<std::string> args) {
    args.insert(args.begin(), "--bus=session");
    return run_ctl(args);
  }

  json safety_state() { return ctl({"approvals", "--json"}).json(); }

  // The calls waiting for approval, once there are `count`.
  json wait_for_pending(std::size_t count) {
    json pending;
    EXPECT_TRUE(eventually(
        [&] {
          pending = safety_state().value("pending", json::array());
          return pending.size() == count;
        },
        10s))
        << pending.dump();
    return pending;
  }

  json audit_records() { return ctl({"audit", "--json"}).json().value("records", json::array()); }

  // Sends a tool call without waiting for its answer.
  static void send_call(LineClient& client, const std::string& tool, const json& arguments, int id) {
    ASSERT_TRUE(client.send_line(request_text(tool, arguments, id)));
  }
  static json answer(LineClient& client, Deadline deadline = 10s) {
    const auto line = client.read_line(deadline);
    return line ? json::parse(*line, nullptr, false) : json();
  }

  BusDaemon bus_{BusDaemon::Kind::Session};
  TempDir state_;
  std::unique_ptr<DaemonProcess> daemon_ = std::make_unique<DaemonProcess>();
  std::string config_path_;
  int port_ = 0;
};

TEST_F(Safety, ApprovalThroughMcpuctlRunsTheWaitingCallOnce) {
  start_daemon();
  auto agent = connect();
  send_call(agent, "gpio_write", {{"pin", 5}, {"value", true}}, 1);
  const json pending = wait_for_pending(1);
  EXPECT_EQ(pending[0]["tool"], "gpio_write");
  EXPECT_EQ(pending[0]["arguments"], json({{"pin", 5}, {"value", true}}));
  EXPECT_EQ(pending[0]["door"], "tcp");
  const auto id = std::to_string(pending[0]["id"].get<std::uint64_t>());
  const auto shown = ctl({"approvals"});
  EXPECT_TRUE(contains(shown.out, "gpio_write")) << shown.out;

  const auto approved = ctl({"approve", id});
  ASSERT_EQ(approved.exit_code, 0) << approved.err;
  const json reply = answer(agent);
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  EXPECT_EQ(reply["result"]["value"], true);
  EXPECT_EQ(agent.result("gpio_read", {{"pin", 5}})["value"], true);

  // One approval is one call: it is gone, and the next write waits again.
  const auto again = ctl({"approve", id});
  EXPECT_NE(again.exit_code, 0);
  EXPECT_TRUE(contains(again.err, "no call waits for approval")) << again.err;
  send_call(agent, "gpio_write", {{"pin", 5}, {"value", false}}, 2);
  wait_for_pending(1);

  // The audit tells who asked, for what, who approved and what came of it.
  const json records = audit_records();
  bool requested = false, decided = false, ran = false;
  for (const auto& record : records) {
    if (record["kind"] == "approval" && record["action"] == "requested" && record["approval"] == pending[0]["id"])
      requested = true;
    if (record["kind"] == "approval" && record["action"] == "approved") {
      decided = true;
      EXPECT_TRUE(contains(record["by"].get<std::string>(), "dbus uid")) << record.dump();
    }
    if (record["kind"] == "call" && record.value("approval", json()) == pending[0]["id"]) {
      ran = true;
      EXPECT_EQ(record["outcome"], "ok");
      EXPECT_EQ(record["tool"], "gpio_write");
      EXPECT_EQ(record["door"], "tcp");
      EXPECT_FALSE(record["peer"].get<std::string>().empty());
    }
  }
  EXPECT_TRUE(requested && decided && ran) << records.dump(1);
}

// An approval is judged against the board as it is when the call runs, not as
// it was when the call was asked for: a human's yes does not pass an interlock.
TEST_F(Safety, AnApprovedCallStillMeetsTheInterlocksWhenItRuns) {
  start_daemon({.heater = "exclusive_with = [\"led\"]\n"});
  auto agent = connect();
  send_call(agent, "gpio_write", {{"pin", 5}, {"value", true}}, 1);
  const json pending = wait_for_pending(1);
  auto other = connect();  // keeps the led on while it stays
  EXPECT_EQ(other.result("gpio_write", {{"pin", 2}, {"value", true}})["value"], true);

  ASSERT_EQ(ctl({"approve", std::to_string(pending[0]["id"].get<std::uint64_t>())}).exit_code, 0);
  const json reply = answer(agent);
  EXPECT_TRUE(is_error(reply, -32006, "INTERLOCK"));
  EXPECT_TRUE(contains(reply["error"].value("message", ""), "led")) << reply.dump();
  EXPECT_EQ(other.result("gpio_read", {{"pin", 5}})["value"], false) << "the heater went on beside the led";
}

TEST_F(Safety, DenialThroughMcpuctlAnswersApprovalDenied) {
  start_daemon();
  auto agent = connect();
  send_call(agent, "gpio_write", {{"pin", 5}, {"value", true}}, 1);
  const json pending = wait_for_pending(1);
  ASSERT_EQ(ctl({"deny", std::to_string(pending[0]["id"].get<std::uint64_t>())}).exit_code, 0);
  EXPECT_TRUE(is_error(answer(agent), -32070, "APPROVAL_DENIED"));
  EXPECT_EQ(agent.result("gpio_read", {{"pin", 5}})["value"], false);
}

TEST_F(Safety, TheApprovePinApprovesTheOldestWaitingCall) {
  start_daemon();
  auto agent = connect();
  send_call(agent, "gpio_write", {{"pin", 5}, {"value", true}}, 1);
  wait_for_pending(1);
  auto button = connect();  // the simulated board's finger on the button
  button.result("gpio_write", {{"pin", 8}, {"value", true}});
  const json reply = answer(agent);
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  EXPECT_EQ(reply["result"]["value"], true);
  bool by_pin = false;
  for (const auto& record : audit_records()) {
    if (record["kind"] == "approval" && record["action"] == "approved")
      by_pin = record["by"] == "approve_pin approve_button";
  }
  EXPECT_TRUE(by_pin);
}

// An agent that asks and then goes away (or cancels) leaves nothing for a
// human to approve: an approval after it left would drive the output for
// nobody. The wait ends as denied, in the audit too.
TEST_F(Safety, AWaitingCallEndsWhenItsClientLeavesOrCancelsIt) {
  start_daemon();
  {
    auto agent = connect();
    send_call(agent, "gpio_write", {{"pin", 5}, {"value", true}}, 1);
    wait_for_pending(1);
  }
  wait_for_pending(0);
  auto agent = connect();
  send_call(agent, "gpio_write", {{"pin", 5}, {"value", true}}, 2);
  wait_for_pending(1);
  ASSERT_TRUE(agent.send_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}})"));
  wait_for_pending(0);
  EXPECT_TRUE(agent.silent_for(300ms)) << "a cancelled request is not answered";
  EXPECT_EQ(agent.result("gpio_read", {{"pin", 5}})["value"], false);
  int ended = 0;
  for (const auto& record : audit_records()) {
    if (record["kind"] == "approval" && record["action"] == "denied" && record["by"] == "client gone") ++ended;
  }
  EXPECT_EQ(ended, 2);
}

TEST_F(Safety, ACallNobodyApprovesTimesOut) {
  start_daemon({"approval_timeout_ms = 300\n"});
  auto agent = connect();
  send_call(agent, "gpio_write", {{"pin", 5}, {"value", true}}, 1);
  EXPECT_TRUE(is_error(answer(agent), -32071, "APPROVAL_TIMEOUT"));
  EXPECT_EQ(safety_state()["pending"], json::array());
  EXPECT_EQ(agent.result("gpio_read", {{"pin", 5}})["value"], false);
}

TEST_F(Safety, ConfirmToolsHoldAnyToolAndTheirCountIsBounded) {
  start_daemon({"confirm_tools = [\"pwm_*\"]\nmax_pending_approvals = 1\n"});
  auto agent = connect();
  send_call(agent, "pwm_write", {{"pin", 18}, {"duty", 100}}, 1);
  wait_for_pending(1);
  auto second = connect();
  EXPECT_TRUE(is_error(second.call("pwm_write", {{"pin", 18}, {"duty", 50}}), -32040, "BUSY"));
  EXPECT_TRUE(second.call("gpio_write", {{"pin", 2}, {"value", true}}).contains("result"));
}

TEST_F(Safety, NoClientCanApproveItselfThroughAnyDoor) {
  start_daemon();
  auto agent = connect();
  send_call(agent, "gpio_write", {{"pin", 5}, {"value", true}}, 1);
  const auto id = wait_for_pending(1)[0]["id"];
  // MCP/U on the same connection and on another, and MCP: no tool approves.
  auto other = connect();
  for (const char* tool : {"approve", "approve_call", "safety_approve"}) {
    EXPECT_TRUE(is_error(other.call(tool, {{"id", id}}), -32601)) << tool;
  }
  auto mcp = connect();
  ASSERT_TRUE(mcp.result("initialize", {{"protocolVersion", "2025-06-18"},
                                        {"capabilities", json::object()},
                                        {"clientInfo", {{"name", "agent"}, {"version", "1"}}}})
                  .is_object());
  const json listed = mcp.result("tools/list");
  for (const auto& tool : listed["tools"]) {
    const std::string name = tool["name"];
    EXPECT_EQ(name.find("approve"), std::string::npos) << name;
    EXPECT_EQ(name.find("deny"), std::string::npos) << name;
  }
  const json via_mcp = mcp.call("tools/call", {{"name", "approve"}, {"arguments", {{"id", id}}}}, 9);
  EXPECT_TRUE(via_mcp.contains("error") || via_mcp["result"].value("isError", false)) << via_mcp.dump();
  // D-Bus's CallTool is a door for tools too: it has none to approve with.
  const auto bus_tool = ctl({"call", "approve", "id=" + id.dump()});
  EXPECT_NE(bus_tool.exit_code, 0);
  EXPECT_TRUE(contains(bus_tool.err, "UnknownTool")) << bus_tool.err;
  EXPECT_EQ(wait_for_pending(1)[0]["id"], id);  // still waiting
}

TEST_F(Safety, AnMcpClientStopsEverythingAndOnlyMcpuctlResets) {
  start_daemon();
  auto agent = connect();
  ASSERT_TRUE(agent.call("gpio_write", {{"pin", 2}, {"value", true}}).contains("result"));
  const json stopped = agent.result("emergency_stop", {{"reason", "smoke"}});
  EXPECT_EQ(stopped["estop"], "active");
  EXPECT_EQ(agent.result("gpio_read", {{"pin", 2}})["value"], false);  // driven to its safe value
  EXPECT_TRUE(is_error(agent.call("gpio_write", {{"pin", 2}, {"value", true}}), -32072, "ESTOP_ACTIVE"));
  EXPECT_TRUE(is_error(agent.call("pwm_write", {{"pin", 18}, {"duty", 10}}), -32072, "ESTOP_ACTIVE"));
  EXPECT_TRUE(agent.call("gpio_read", {{"pin", 2}}).contains("result"));  // reading is not actuating

  // No MCP route resets it: not emergency_stop's reset, not over MCP.
  EXPECT_TRUE(is_error(agent.call("emergency_stop", {{"reset", true}}), -32020, "NOT_AUTHORIZED"));
  auto mcp = connect();
  mcp.result("initialize", {{"protocolVersion", "2025-06-18"},
                            {"capabilities", json::object()},
                            {"clientInfo", {{"name", "agent"}, {"version", "1"}}}});
  const json via_mcp = mcp.call("tools/call", {{"name", "emergency_stop"}, {"arguments", {{"reset", true}}}}, 3);
  EXPECT_TRUE(via_mcp.contains("error") || via_mcp["result"].value("isError", false)) << via_mcp.dump();
  EXPECT_TRUE(is_error(agent.call("gpio_write", {{"pin", 2}, {"value", true}}), -32072, "ESTOP_ACTIVE"));
  const auto state = safety_state();
  EXPECT_EQ(state["estop"]["active"], true);
  EXPECT_EQ(state["estop"]["reason"], "smoke");
  EXPECT_TRUE(contains(state["estop"]["by"].get<std::string>(), "tcp 127.0.0.1:")) << state.dump();

  const auto reset = ctl({"estop", "--reset"});
  ASSERT_EQ(reset.exit_code, 0) << reset.err;
  EXPECT_TRUE(contains(reset.out, "emergency stop: clear")) << reset.out;
  EXPECT_TRUE(agent.call("gpio_write", {{"pin", 2}, {"value", true}}).contains("result"));
}

TEST_F(Safety, AWaitingCallIsRefusedWhenTheStopComes) {
  start_daemon();
  auto agent = connect();
  send_call(agent, "gpio_write", {{"pin", 5}, {"value", true}}, 1);
  wait_for_pending(1);
  ASSERT_EQ(ctl({"estop", "--reason", "test"}).exit_code, 0);
  EXPECT_TRUE(is_error(answer(agent), -32072, "ESTOP_ACTIVE"));
  EXPECT_EQ(safety_state()["pending"], json::array());
}

TEST_F(Safety, TheEstopPinStopsEverything) {
  start_daemon();
  auto agent = connect();
  ASSERT_TRUE(agent.call("gpio_write", {{"pin", 2}, {"value", true}}).contains("result"));
  agent.result("gpio_write", {{"pin", 6}, {"value", true}});  // the button goes high
  ASSERT_TRUE(eventually([&] { return safety_state()["estop"]["active"] == true; }, 10s));
  EXPECT_EQ(safety_state()["estop"]["by"], "estop_pin estop_button");
  EXPECT_EQ(agent.result("gpio_read", {{"pin", 2}})["value"], false);
  EXPECT_TRUE(is_error(agent.call("gpio_write", {{"pin", 2}, {"value", true}}), -32072, "ESTOP_ACTIVE"));
}

// A button already pressed when mcpud starts gives no edge: the stop is
// latched from the start, and no output leaves its safe value.
TEST_F(Safety, AnEstopPinActiveAtStartLatchesTheStop) {
  start_daemon({.estop_sim = R"(sim = { mode = "constant", level = true })"});
  const json state = safety_state();
  EXPECT_EQ(state["estop"]["active"], true) << state.dump();
  EXPECT_EQ(state["estop"]["by"], "estop_pin estop_button");
  EXPECT_EQ(state["estop"]["reason"], "input is high at start");
  auto agent = connect();
  EXPECT_TRUE(is_error(agent.call("gpio_write", {{"pin", 2}, {"value", true}}), -32072, "ESTOP_ACTIVE"));
}

TEST_F(Safety, AStopFromMcpuctlSurvivesARestart) {
  start_daemon();
  const auto stopped = ctl({"estop", "--reason", "maintenance"});
  ASSERT_EQ(stopped.exit_code, 0) << stopped.err;
  EXPECT_TRUE(contains(stopped.out, "emergency stop: ACTIVE")) << stopped.out;
  EXPECT_TRUE(std::filesystem::exists(state_dir() / "estop.json"));
  restart_daemon();
  EXPECT_TRUE(daemon_->wait_for_log("the emergency stop is latched since before this start")) << daemon_->log();
  auto agent = connect();
  EXPECT_TRUE(is_error(agent.call("gpio_write", {{"pin", 2}, {"value", true}}), -32072, "ESTOP_ACTIVE"));
  EXPECT_EQ(safety_state()["estop"]["reason"], "maintenance");
  ASSERT_EQ(ctl({"estop", "--reset"}).exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(state_dir() / "estop.json"));
  EXPECT_TRUE(agent.call("gpio_write", {{"pin", 2}, {"value", true}}).contains("result"));
}

TEST_F(Safety, ADryRunSaysWhatWouldHappenAndChangesNothing) {
  start_daemon();
  auto agent = connect();
  const json heater = agent.result("gpio_write", {{"pin", 5}, {"value", true}, {"dry_run", true}});
  EXPECT_EQ(heater["dry_run"], true);
  EXPECT_EQ(heater["needs_approval"], true);
  EXPECT_EQ(safety_state()["pending"], json::array());  // asked, not waiting
  const json led = agent.result("gpio_write", {{"pin", 2}, {"value", true}, {"dry_run", true}});
  EXPECT_EQ(led["needs_approval"], false);
  EXPECT_EQ(agent.result("gpio_read", {{"pin", 2}})["value"], false);  // unchanged
  agent.result("emergency_stop");
  EXPECT_TRUE(
      is_error(agent.call("gpio_write", {{"pin", 2}, {"value", true}, {"dry_run", true}}), -32072, "ESTOP_ACTIVE"));
}

TEST_F(Safety, TheAuditHasEveryRecordInOrderWithoutAGap) {
  start_daemon();
  auto agent = connect();
  agent.result("gpio_write", {{"pin", 2}, {"value", true}});
  agent.result("gpio_write", {{"pin", 2}, {"value", true}, {"dry_run", true}});
  agent.result("emergency_stop", {{"reason", "audit"}});
  agent.call("gpio_write", {{"pin", 2}, {"value", false}});
  ASSERT_EQ(ctl({"estop", "--reset"}).exit_code, 0);
  const json ring = ctl({"audit", "--json"}).json();
  EXPECT_EQ(ring["lost"], 0);
  const json& records = ring["records"];
  ASSERT_EQ(records.size(), 6u) << records.dump(1);
  for (std::size_t i = 0; i < records.size(); ++i) EXPECT_EQ(records[i]["seq"], i + 1);
  EXPECT_EQ(records[0]["outcome"], "ok");
  EXPECT_EQ(records[1]["dry_run"], true);
  // The stop drove the led back to safe itself: an automatic action, recorded.
  EXPECT_EQ(records[2]["kind"], "safety_action");
  EXPECT_EQ(records[2]["action"], "release_all");
  EXPECT_EQ(records[3]["kind"], "estop");
  EXPECT_EQ(records[4]["outcome"], "ESTOP_ACTIVE");
  EXPECT_EQ(records[5]["action"], "reset");
  const auto shown = ctl({"audit"});
  EXPECT_FALSE(contains(shown.out, "records lost"));
  EXPECT_TRUE(contains(shown.out, "#4 ")) << shown.out;
}

TEST_F(Safety, AGapAfterTheRingOverflowedIsShown) {
  start_daemon({"audit_records = 3\n"});
  auto agent = connect();
  for (int i = 0; i < 5; ++i) agent.result("gpio_write", {{"pin", 2}, {"value", i % 2 == 0}});
  const json ring = ctl({"audit", "--json"}).json();
  EXPECT_EQ(ring["lost"], 2);
  EXPECT_EQ(ring["records"].size(), 3u);
  EXPECT_EQ(ring["records"][0]["seq"], 3);
  const auto shown = ctl({"audit"});
  EXPECT_TRUE(contains(shown.out, "-- 2 records lost")) << shown.out;
  // Following from the start shows the same gap, then the records as they come.
  const auto followed = run_ctl({"--bus=session", "audit", "--follow", "--json", "--count", "3"});
  ASSERT_EQ(followed.exit_code, 0) << followed.err;
  EXPECT_TRUE(contains(followed.out, "{\"lost\":2}")) << followed.out;
}

}  // namespace mcpud::it::safety
