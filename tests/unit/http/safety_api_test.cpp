// SPDX-License-Identifier: MIT
// Unit tests of the dashboard's safety controls over HTTP, called as the
// function they are: no sockets, a SafetyControl that records what it is told.
#include "safety_api.hpp"

#include <gtest/gtest.h>

namespace mcpud::http {
namespace {

using nlohmann::json;

constexpr std::string_view kKey = "Bearer dashboard-key";

class RecordingSafety final : public SafetyControl {
 public:
  json state() const override { return {{"estop", {{"active", stopped}}}, {"pending", json::array()}}; }
  void emergency_stop(std::string_view by, std::string_view reason) override {
    stopped = true;
    said = std::string(by) + ": " + std::string(reason);
  }
  void reset_emergency_stop(std::string_view by) override {
    stopped = false;
    said = std::string(by);
  }
  Result<void> approve(std::uint64_t id, std::string_view by) override { return decide("approved", id, by); }
  Result<void> deny(std::uint64_t id, std::string_view by) override { return decide("denied", id, by); }
  json audit_since(std::uint64_t after) const override { return {{"after", after}}; }

  Result<void> decide(std::string what, std::uint64_t id, std::string_view by) {
    if (id != 7)
      return std::unexpected(Error::domain(DomainError::ResourceNotFound, "no call waits as " + std::to_string(id)));
    said = what + " by " + std::string(by);
    return {};
  }
  bool stopped = false;
  std::string said;
};

class SafetyApi : public ::testing::Test {
 protected:
  SafetyApiResponse serve(std::string_view method, std::string_view path, std::string_view body = "",
                          std::string_view authorization = kKey, std::string_view query = "",
                          std::string_view content_type = "application/json") {
    return serve_safety_api({method, path, query, authorization, content_type, body, "dashboard 192.0.2.7"}, &safety,
                            "dashboard-key");
  }
  static json body_of(const SafetyApiResponse& response) { return json::parse(response.body); }

  RecordingSafety safety;
};

TEST_F(SafetyApi, OnlyItsOwnKeyOpensItAndWithoutOneItIsOff) {
  EXPECT_EQ(serve("GET", "/api/safety", "", "Bearer the-mcp-token").status, 401u);
  EXPECT_TRUE(serve("GET", "/api/safety", "", "").challenge);
  const auto off = serve_safety_api({"GET", "/api/safety", "", kKey, "", "", "x"}, &safety, "");
  EXPECT_EQ(off.status, 403u);
  EXPECT_NE(body_of(off)["error"].get<std::string>().find("[http] dashboard_token"), std::string::npos);
  EXPECT_EQ(serve("GET", "/api/safety").status, 200u);
}

TEST_F(SafetyApi, DecidesNamesWhoDecidedAndSaysWhenNoCallWaits) {
  EXPECT_EQ(serve("POST", "/api/safety/approve", R"({"id":7})").status, 200u);
  EXPECT_EQ(safety.said, "approved by dashboard 192.0.2.7");
  const auto missing = serve("POST", "/api/safety/deny", R"({"id":8})");
  EXPECT_EQ(missing.status, 404u);
  EXPECT_EQ(body_of(missing)["error"], "no call waits as 8");
  EXPECT_EQ(serve("POST", "/api/safety/deny", R"({"id":"7"})").status, 400u) << "an id is a number";
  EXPECT_EQ(serve("POST", "/api/safety/deny", "[7]").status, 400u);
}

TEST_F(SafetyApi, StopsAndResets) {
  EXPECT_EQ(serve("POST", "/api/safety/estop", R"({"reason":"smoke"})").status, 200u);
  EXPECT_TRUE(safety.stopped);
  EXPECT_EQ(safety.said, "dashboard 192.0.2.7: smoke");
  EXPECT_EQ(body_of(serve("GET", "/api/safety"))["estop"]["active"], true);
  EXPECT_EQ(serve("POST", "/api/safety/reset").status, 200u);
  EXPECT_FALSE(safety.stopped);
}

TEST_F(SafetyApi, RefusesWhatACrossSiteFormOrAWrongMethodSends) {
  EXPECT_EQ(serve("POST", "/api/safety/reset", "", kKey, "", "application/x-www-form-urlencoded").status, 415u);
  EXPECT_FALSE(safety.said.size());
  const auto wrong = serve("GET", "/api/safety/reset");
  EXPECT_EQ(wrong.status, 405u);
  EXPECT_EQ(wrong.allow, "POST");
  EXPECT_EQ(serve("POST", "/api/safety").status, 405u);
  EXPECT_EQ(serve("GET", "/api/safety/other").status, 404u);
}

TEST_F(SafetyApi, TheAuditIsReadAfterASequenceNumber) {
  EXPECT_EQ(body_of(serve("GET", "/api/safety/audit", "", kKey, "after=41"))["after"], 41);
  EXPECT_EQ(body_of(serve("GET", "/api/safety/audit"))["after"], 0);
  EXPECT_EQ(serve("GET", "/api/safety/audit", "", kKey, "after=x").status, 400u);
}

TEST(WrongKeys, AnAddressThatGuessesWaitsForTheRestOfTheMinuteAndOthersDoNot) {
  WrongKeys wrong;
  const auto start = WrongKeys::Clock::time_point{} + std::chrono::hours(1);
  for (unsigned i = 0; i < WrongKeys::kMaxWrong; ++i) {
    EXPECT_EQ(wrong.wait_s("192.0.2.7", start), 0u) << "guess " << i;
    wrong.note("192.0.2.7", start);
  }
  EXPECT_EQ(wrong.wait_s("192.0.2.7", start + std::chrono::seconds(20)), 40u);
  EXPECT_EQ(wrong.wait_s("192.0.2.8", start), 0u);
  EXPECT_EQ(wrong.wait_s("192.0.2.7", start + std::chrono::minutes(1)), 0u);
  wrong.note("192.0.2.7", start + std::chrono::minutes(1));  // a new minute, a new tally
  EXPECT_EQ(wrong.wait_s("192.0.2.7", start + std::chrono::minutes(1)), 0u);
}

TEST(WrongKeys, ForgetsTheOldestAddressPastItsBound) {
  WrongKeys wrong;
  const auto start = WrongKeys::Clock::time_point{} + std::chrono::hours(1);
  for (unsigned i = 0; i < WrongKeys::kMaxWrong; ++i) wrong.note("first", start);
  for (std::size_t i = 0; i < WrongKeys::kMaxAddresses; ++i)
    wrong.note("other-" + std::to_string(i), start + std::chrono::seconds(1));
  EXPECT_EQ(wrong.wait_s("first", start + std::chrono::seconds(2)), 0u) << "the table grew past its bound";
}

}  // namespace
}  // namespace mcpud::http
