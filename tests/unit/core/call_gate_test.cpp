// SPDX-License-Identifier: MIT
// Unit tests of the gate in the registry's one call path and of the audit
// ring: which tools pass the gate, what a tool that does not know dry_run
// sees, and the gap a reader is told of after the ring forgot records.
#include "mcpud/core/call_gate.hpp"

#include <gtest/gtest.h>

#include <optional>

#include "mcpud/core/audit_log.hpp"
#include "mcpud/core/tool_registry.hpp"

namespace mcpud {
namespace {

using nlohmann::json;

// Lets every call through, remembering what it was asked.
class RecordingGate final : public CallGate {
 public:
  void admit(GatedCall call, ToolReply reply, GateProceed proceed) override {
    seen.push_back(call.tool->name);
    arguments = call.arguments;
    proceed(call.caller, std::move(call.arguments), std::move(reply));
  }
  std::vector<std::string> seen;
  json arguments;
};

Tool echo_tool(std::string name, bool read_only) {
  Tool tool = make_tool({.owner = "test",
                         .name = std::move(name),
                         .input_schema = {{"type", "object"}, {"additionalProperties", false}},
                         .hints = read_only ? kReads : kDrivesLoads});
  tool.invoke = [](json args, ToolReply reply) { reply(std::move(args)); };
  return tool;
}

json call(ToolRegistry& registry, const std::string& name, json arguments) {
  std::optional<ToolResult> answer;
  registry.call(Caller{}, name, std::move(arguments), [&](ToolResult result) { answer = std::move(result); });
  EXPECT_TRUE(answer.has_value());
  return answer && *answer ? **answer : json(answer ? (*answer).error().message : "no answer");
}

TEST(CallGate, OnlyActuatingToolsPassItAndTheEmergencyStopNever) {
  ToolRegistry registry;
  RecordingGate gate;
  registry.set_gate(&gate);
  ASSERT_TRUE(registry.add(echo_tool("write", false)));
  ASSERT_TRUE(registry.add(echo_tool("read", true)));
  ASSERT_TRUE(registry.add(echo_tool("emergency_stop", false)));
  ASSERT_TRUE(registry.add(echo_tool("uno__emergency_stop", false)));
  for (const char* name : {"write", "read", "emergency_stop", "uno__emergency_stop"}) call(registry, name, {});
  EXPECT_EQ(gate.seen, std::vector<std::string>{"write"});
  EXPECT_FALSE(is_emergency_stop("__emergency_stop"));
  EXPECT_FALSE(is_emergency_stop("my_emergency_stop"));
}

// A bridged device may say its tool only reads; the gate does not take its word.
TEST(CallGate, AToolOnlyItsDeviceCallsReadOnlyStillPassesIt) {
  ToolRegistry registry;
  RecordingGate gate;
  registry.set_gate(&gate);
  auto claimed = echo_tool("uno__claims_to_read", false);
  claimed.annotations = {.read_only = true, .destructive = false, .from = HintsFrom::Device};
  ASSERT_TRUE(registry.add(std::move(claimed)));
  call(registry, "uno__claims_to_read", {});
  EXPECT_EQ(gate.seen, std::vector<std::string>{"uno__claims_to_read"});
}

TEST(CallGate, ActuatingToolsAcceptDryRunWhichAToolThatDoesNotKnowItNeverSees) {
  ToolRegistry registry;
  RecordingGate gate;
  registry.set_gate(&gate);
  ASSERT_TRUE(registry.add(echo_tool("write", false)));
  ASSERT_TRUE(registry.add(echo_tool("read", true)));
  EXPECT_TRUE(registry.find("write")->input_schema["properties"].contains("dry_run"));
  EXPECT_FALSE(registry.find("read")->input_schema.contains("properties"));
  EXPECT_EQ(call(registry, "write", {{"dry_run", false}}), json::object());  // the tool got {}
  EXPECT_EQ(gate.arguments, json({{"dry_run", false}}));                     // the gate saw it
}

TEST(AuditLog, NumbersRecordsAndTellsAReaderWhatTheRingForgot) {
  EventHub events;
  std::vector<json> published;
  auto subscription = events.subscribe([&](const Event& event) {
    if (event.kind == EventKind::Audit) published.push_back(event.data);
  });
  AuditLog audit(events, 3);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(audit.append({{"kind", "call"}, {"tool", "write"}}), i + 1u);
  ASSERT_EQ(published.size(), 5u);
  EXPECT_EQ(published[4]["seq"], 5);
  const json from_start = audit.since(0);
  EXPECT_EQ(from_start["lost"], 2);
  ASSERT_EQ(from_start["records"].size(), 3u);
  EXPECT_EQ(from_start["records"][0]["seq"], 3);
  EXPECT_EQ(audit.since(3)["lost"], 0);
  EXPECT_EQ(audit.since(3)["records"].size(), 2u);
  EXPECT_EQ(audit.since(5)["records"], json::array());
}

// Records are kept back to back in blocks of text; reading and forgetting
// across many blocks, and a record larger than a block, lose nothing the
// ring should still have.
TEST(AuditLog, AFullRingAcrossManyBlocksReadsBackInOrderAndShrinksOnRequest) {
  EventHub events;
  AuditLog audit(events, 500);
  const std::string padding(200, 'x');
  for (int i = 0; i < 2000; ++i) audit.append({{"kind", "call"}, {"tool", "write"}, {"arguments", padding}});
  audit.append({{"kind", "call"}, {"arguments", std::string(100 * 1024, 'y')}});
  const json all = audit.since(0);
  EXPECT_EQ(all["lost"], 1501);
  ASSERT_EQ(all["records"].size(), 500u);
  for (std::size_t i = 0; i < 500; ++i) ASSERT_EQ(all["records"][i]["seq"], 1502 + i) << i;
  EXPECT_EQ(all["records"][499]["arguments"].get<std::string>().size(), 100u * 1024);
  const json recent = audit.since(1900);
  EXPECT_EQ(recent["lost"], 0);
  ASSERT_EQ(recent["records"].size(), 101u);
  EXPECT_EQ(recent["records"][0]["seq"], 1901);
  EXPECT_EQ(recent["records"][0]["arguments"], padding);
  audit.set_capacity(2);
  const json kept = audit.since(0);
  ASSERT_EQ(kept["records"].size(), 2u);
  EXPECT_EQ(kept["records"][0]["seq"], 2000);
  EXPECT_EQ(kept["next_seq"], 2002);
}

TEST(AuditLog, JournalFieldsCarryEveryKeyUnderMcpudAudit) {
  const auto fields = audit_journal_fields({{"seq", 7}, {"tool", "gpio_write"}, {"arguments", {{"pin", 2}}}});
  const auto value = [&](const std::string& key) {
    for (const auto& [name, text] : fields) {
      if (name == key) return text;
    }
    return std::string("(absent)");
  };
  EXPECT_EQ(value("MCPUD_AUDIT"), "1");
  EXPECT_EQ(value("MCPUD_AUDIT_SEQ"), "7");
  EXPECT_EQ(value("MCPUD_AUDIT_TOOL"), "gpio_write");
  EXPECT_EQ(value("MCPUD_AUDIT_ARGUMENTS"), R"({"pin":2})");
  EXPECT_NE(value("MESSAGE").find("gpio_write"), std::string::npos);
}

}  // namespace
}  // namespace mcpud
