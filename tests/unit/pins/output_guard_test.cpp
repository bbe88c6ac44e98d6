// SPDX-License-Identifier: MIT
// Unit tests of the output limits: the [[pins]] keys' checks, the guard on a
// hand-driven clock, and a property test of the interlocks under random writes,
// client departures and timer fires.
#include "mcpud/pins/output_guard.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "mcpud/core/schema.hpp"
#include "mcpud/core/toml_document.hpp"
#include "mcpud/pins/pin_config.hpp"
#include "mcpud/pins/pin_table.hpp"

namespace mcpud::pins::output_guard_test {

using nlohmann::json;

std::expected<BoardConfig, std::string> board_from_toml(std::string_view toml) {
  auto document = read_toml_document(toml, "test.toml");
  if (!document) return std::unexpected(document.error());
  json schema = {{"type", "object"}, {"properties", json::object()}};
  add_board_schema(schema);
  if (auto valid = schema::validate(schema, *document, ""); !valid) return std::unexpected(valid.error());
  return parse_board_config(*document);
}

// Time moves only when the test says; deferred work runs when the test says.
class HandClock final : public GuardClock {
 public:
  std::int64_t now_ms() const override { return now; }
  void wake_at(std::optional<std::int64_t> at_ms) override { wake = at_ms; }
  void defer(std::function<void()> work) override { deferred.push_back(std::move(work)); }

  void run_deferred() {
    auto work = std::move(deferred);
    deferred.clear();
    for (auto& w : work) w();
  }
  // Advances to `to`, firing the guard's wake-ups on the way, as the loop would.
  void advance(OutputGuard& guard, std::int64_t to) {
    while (wake && *wake <= to) {
      now = std::max(now, *wake);
      guard.expire();
    }
    now = to;
  }

  std::int64_t now = 1000;
  std::optional<std::int64_t> wake;
  std::vector<std::function<void()>> deferred;
};

constexpr const char* kBoard = R"(
[[pins]]
name = "heater"
pin = 1
type = "digital_output"
safe_value = false
max_on_ms = 500
min_off_ms = 300
[[pins]]
name = "cooler"
pin = 2
type = "digital_output"
safe_value = false
exclusive_with = ["heater"]
[[pins]]
name = "valve"
pin = 3
type = "digital_output"
safe_value = false
lease_ms = 200
[[pins]]
name = "pump"
pin = 4
type = "pwm_output"
safe_duty = 0
min_duty = 40
max_duty = 200
requires = "valve"
max_writes_per_s = 3
[[pins]]
name = "lamp"
pin = 5
type = "digital_output"
)";

class Guard : public ::testing::Test {
 protected:
  void SetUp() override {
    auto board = board_from_toml(kBoard);
    ASSERT_TRUE(board) << board.error();
    auto built = PinTable::build(*board, "test");
    ASSERT_TRUE(built) << built.error().message;
    table = std::move(*built);
    guard.adopt(*table);
    agent.door = "tcp";
    agent.peer = "127.0.0.1:5000";
    agent.identity = std::make_shared<ClientIdentity>();
  }

  BoardPin& pin(std::string_view name) { return *table->find(name); }
  int value(std::string_view name) {
    auto& p = pin(name);
    return p.output ? (*p.output->read() ? 1 : 0) : static_cast<int>(std::lround(p.pwm->state().duty * 255));
  }
  Result<WriteOutcome> write(std::string_view name, int v, const Caller& who, std::uint32_t hold_ms = 0,
                             bool dry_run = false) {
    return guard.write(pin(name), {.value = v, .hold_ms = hold_ms, .dry_run = dry_run}, who);
  }

  HandClock clock;
  EventHub events;
  OutputGuard guard{clock, &events};
  std::unique_ptr<PinTable> table;
  Caller agent;
  Caller person;  // no identity: mcpud's own call
};

TEST_F(Guard, OnlyOutputsWithLimitsOrASafeValueAreGuarded) {
  EXPECT_TRUE(pin("heater").guarded);
  EXPECT_TRUE(pin("pump").guarded);
  EXPECT_FALSE(pin("lamp").guarded);
}

TEST_F(Guard, NoTimerIsArmedWhileEveryOutputIsAtItsSafeValue) {
  EXPECT_FALSE(guard.timer_armed());
  ASSERT_TRUE(write("heater", 1, agent));
  EXPECT_TRUE(guard.timer_armed());
  ASSERT_TRUE(write("heater", 0, agent));
  EXPECT_FALSE(guard.timer_armed());
}

TEST_F(Guard, MaxOnEndsTheOutputAndMinOffRefusesItWithARetryHint) {
  auto on = write("heater", 1, person);
  ASSERT_TRUE(on) << on.error().message;
  EXPECT_EQ(on->revert_reason, "max_on");
  EXPECT_EQ(on->reverts_after_ms, 500U);
  std::vector<json> actions;
  auto subscription = events.subscribe([&](const Event& e) {
    if (e.kind == EventKind::SafetyAction) actions.push_back(e.data);
  });
  clock.advance(guard, 1499);
  EXPECT_EQ(value("heater"), 1);
  clock.advance(guard, 1500);
  EXPECT_EQ(value("heater"), 0);
  ASSERT_EQ(actions.size(), 1U);
  EXPECT_EQ(actions[0]["action"], "max_on");
  EXPECT_EQ(actions[0]["output"], "heater");
  EXPECT_EQ(actions[0]["value"], false);
  clock.advance(guard, 1600);
  auto again = write("heater", 1, person);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().name, "MIN_OFF_TIME");
  EXPECT_EQ(again.error().retry_after_ms, 200U);
  clock.advance(guard, 1800);
  EXPECT_TRUE(write("heater", 1, person));
}

TEST_F(Guard, AnAgentsOutputReturnsToSafeWhenItGoesButAPersonsHolds) {
  ASSERT_TRUE(write("heater", 1, agent));
  ASSERT_TRUE(write("cooler", 0, person));
  agent.identity.reset();
  clock.run_deferred();
  EXPECT_EQ(value("heater"), 0);

  Caller other{.door = "tcp", .identity = std::make_shared<ClientIdentity>()};
  clock.advance(guard, 5000);
  ASSERT_TRUE(write("heater", 1, person));
  other.identity.reset();
  clock.run_deferred();
  EXPECT_EQ(value("heater"), 1);
}

TEST_F(Guard, ALeaseEndsUnlessTheSameClientWritesAgain) {
  ASSERT_TRUE(write("valve", 1, agent));
  clock.advance(guard, 1150);
  ASSERT_TRUE(write("valve", 1, agent));  // keep-alive
  clock.advance(guard, 1300);
  EXPECT_EQ(value("valve"), 1);
  clock.advance(guard, 1350);
  EXPECT_EQ(value("valve"), 0);
}

TEST_F(Guard, RangeRateAndInterlocksAreRefusedButSafeIsNever) {
  auto without_valve = write("pump", 100, agent);
  ASSERT_FALSE(without_valve);
  EXPECT_EQ(without_valve.error().name, "INTERLOCK");
  EXPECT_NE(without_valve.error().message.find("valve"), std::string::npos);
  ASSERT_TRUE(write("valve", 1, person));
  auto too_high = write("pump", 201, agent);
  ASSERT_FALSE(too_high);
  EXPECT_EQ(too_high.error().name, "OUT_OF_RANGE");
  EXPECT_NE(too_high.error().message.find("40-200"), std::string::npos);
  ASSERT_TRUE(write("pump", 100, agent));
  ASSERT_TRUE(write("pump", 110, agent));
  ASSERT_TRUE(write("pump", 120, agent));
  auto fast = write("pump", 130, agent);
  ASSERT_FALSE(fast);
  EXPECT_EQ(fast.error().name, "RATE_LIMITED");
  EXPECT_EQ(fast.error().retry_after_ms, 1000U);
  EXPECT_TRUE(write("pump", 0, agent));  // safe is never refused

  ASSERT_TRUE(write("heater", 1, person));
  auto both = write("cooler", 1, person);
  ASSERT_FALSE(both);
  EXPECT_EQ(both.error().name, "INTERLOCK");
  EXPECT_NE(both.error().message.find("heater"), std::string::npos);
}

TEST_F(Guard, AnOutputFollowsItsRequirementBackToSafe) {
  ASSERT_TRUE(write("valve", 1, person));
  ASSERT_TRUE(write("pump", 100, person));
  ASSERT_TRUE(write("valve", 0, person));
  EXPECT_EQ(value("pump"), 0);
}

TEST_F(Guard, APulseEndsItselfAndADryRunChangesNothing) {
  auto dry = write("heater", 1, agent, 100, true);
  ASSERT_TRUE(dry);
  EXPECT_EQ(dry->revert_reason, "hold");
  EXPECT_EQ(value("heater"), 0);
  EXPECT_FALSE(guard.timer_armed());
  ASSERT_TRUE(write("heater", 1, agent, 100));
  clock.advance(guard, 1100);
  EXPECT_EQ(value("heater"), 0);
  auto too_long = write("cooler", 1, agent, 0, false);
  ASSERT_TRUE(too_long);
  auto longer_than_max_on = write("heater", 1, agent, 600);
  ASSERT_FALSE(longer_than_max_on);
  EXPECT_EQ(longer_than_max_on.error().name, "OUT_OF_RANGE");
}

TEST_F(Guard, ReleaseAllDrivesEveryOutputToSafeAndStopsTheTimers) {
  ASSERT_TRUE(write("valve", 1, agent));
  ASSERT_TRUE(write("pump", 100, agent));
  ASSERT_TRUE(write("heater", 1, agent));
  guard.release_all("emergency stop");
  EXPECT_EQ(value("valve"), 0);
  EXPECT_EQ(value("pump"), 0);
  EXPECT_EQ(value("heater"), 0);
  EXPECT_FALSE(guard.timer_armed());
}

TEST_F(Guard, DescribeShowsTheLimitsAndWhileOnTheState) {
  const auto idle = guard.describe(pin("heater"));
  EXPECT_EQ(idle["max_on_ms"], 500);
  EXPECT_EQ(idle["min_off_ms"], 300);
  EXPECT_FALSE(idle.contains("on_since_ms"));
  ASSERT_TRUE(write("valve", 1, agent));
  const auto on = guard.describe(pin("valve"));
  EXPECT_TRUE(on.contains("on_since_ms"));
  EXPECT_TRUE(on.contains("lease_expires_ms"));
  EXPECT_EQ(on["holder"], "tcp 127.0.0.1:5000");
  EXPECT_EQ(guard.describe(pin("cooler"))["exclusive_with"], json::array({"heater"}));
  const auto summary = guard.summary(*table, false);
  EXPECT_NE(summary.find("heater: back to false when its client goes, max 500 ms on, 300 ms off between"),
            std::string::npos)
      << summary;
}

// Random writes by three clients and a person, departures and time passing:
// never two exclusive outputs away from safe together, never pump on while
// valve is at its safe value.
TEST_F(Guard, InterlocksHoldUnderRandomWritesDeparturesAndTimers) {
  std::mt19937 random(38);
  std::vector<Caller> callers(3);
  for (auto& c : callers) c = Caller{.door = "tcp", .identity = std::make_shared<ClientIdentity>()};
  callers.push_back(person);
  const std::vector<std::string> outputs = {"heater", "cooler", "valve", "pump"};
  for (int step = 0; step < 20000; ++step) {
    switch (random() % 4) {
      case 0:
      case 1: {
        const auto& name = outputs[random() % outputs.size()];
        const int v = name == "pump" ? static_cast<int>(random() % 256) : static_cast<int>(random() % 2);
        const std::uint32_t hold = random() % 3 == 0 ? 1 + random() % 400 : 0;
        (void)write(name, v, callers[random() % callers.size()], hold, random() % 5 == 0);
        break;
      }
      case 2: {
        auto& c = callers[random() % 3];
        c.identity = std::make_shared<ClientIdentity>();  // the old client is gone, a new one comes
        clock.run_deferred();
        break;
      }
      case 3:
        clock.advance(guard, clock.now + random() % 300);
        break;
    }
    ASSERT_FALSE(value("heater") != 0 && value("cooler") != 0) << "step " << step;
    ASSERT_FALSE(value("pump") != 0 && value("valve") == 0) << "step " << step;
  }
}

TEST(OutputLimitsConfig, KeysAreCheckedAtLoadWithTheirPath) {
  const auto error_of = [](const std::string& toml) {
    auto board = board_from_toml(toml);
    return board ? std::string("accepted") : board.error();
  };
  const std::string out = "[[pins]]\nname = \"a\"\npin = 1\ntype = \"digital_output\"\nsafe_value = false\n";
  const std::string pwm = "[[pins]]\nname = \"p\"\npin = 2\ntype = \"pwm_output\"\nsafe_duty = 0\n";
  EXPECT_EQ(error_of(out + "exclusive_with = [\"nope\"]\n"),
            "pins[0].exclusive_with[0]: no digital_output or pwm_output named 'nope'");
  EXPECT_EQ(error_of(out + "requires = \"a\"\n"), "pins[0].requires: 'a' is this output itself");
  EXPECT_EQ(error_of(out + "requires = \"p\"\n" + pwm + "requires = \"a\"\n"),
            "pins[0].requires: a cycle: a -> p -> a");
  EXPECT_EQ(error_of(pwm + "min_duty = 100\nmax_duty = 50\n"), "pins[0].min_duty: 100 is above max_duty 50");
  EXPECT_EQ(error_of(out + "min_duty = 10\n"), "pins[0].min_duty: not used by a digital_output pin");
  EXPECT_EQ(error_of("[[pins]]\nname = \"b\"\npin = 3\ntype = \"digital_input\"\nmax_on_ms = 5\n"),
            "pins[0].max_on_ms: not used by a digital_input pin");
  EXPECT_EQ(error_of("[[pins]]\nname = \"c\"\npin = 4\ntype = \"digital_output\"\nmax_on_ms = 5\n"),
            "pins[0].max_on_ms: needs safe_value, the value the output returns to");
  EXPECT_EQ(error_of("[[pins]]\nname = \"c\"\npin = 4\ntype = \"digital_output\"\non_release = \"safe\"\n"),
            "pins[0].on_release: \"safe\" needs safe_value, the value the output returns to");
  EXPECT_EQ(error_of(out + "max_on_ms = 100\nlease_ms = 50\nmin_off_ms = 10\nmax_writes_per_s = 5\n"), "accepted");
}

TEST(OutputLimitsConfig, AnOutputWithASafeValueReturnsToItByDefault) {
  auto board = board_from_toml(
      "[[pins]]\nname = \"a\"\npin = 1\ntype = \"digital_output\"\nsafe_value = false\n"
      "[[pins]]\nname = \"b\"\npin = 2\ntype = \"digital_output\"\n"
      "[[pins]]\nname = \"c\"\npin = 3\ntype = \"digital_output\"\nsafe_value = false\non_release = \"hold\"\n");
  ASSERT_TRUE(board) << board.error();
  EXPECT_EQ(board->pins[0].limits.on_release, OnRelease::Safe);
  EXPECT_EQ(board->pins[1].limits.on_release, OnRelease::Hold);
  EXPECT_EQ(board->pins[2].limits.on_release, OnRelease::Hold);
}

}  // namespace mcpud::pins::output_guard_test
