// SPDX-License-Identifier: MIT
// Backoff: doubling to a ceiling, jitter within bounds, reset.
#include "mcpud/core/backoff.hpp"

#include <gtest/gtest.h>

using namespace std::chrono_literals;

TEST(Backoff, DoublesUpToTheCeilingWithoutJitter) {
  mcpud::Backoff backoff(100ms, 1000ms, 0.0);
  EXPECT_EQ(backoff.next(), 100ms);
  EXPECT_EQ(backoff.next(), 200ms);
  EXPECT_EQ(backoff.next(), 400ms);
  EXPECT_EQ(backoff.next(), 800ms);
  EXPECT_EQ(backoff.next(), 1000ms);
  EXPECT_EQ(backoff.next(), 1000ms);
}

TEST(Backoff, ResetStartsAgainFromTheFirstDelay) {
  mcpud::Backoff backoff(50ms, 400ms, 0.0);
  backoff.next();
  backoff.next();
  backoff.reset();
  EXPECT_EQ(backoff.next(), 50ms);
}

TEST(Backoff, JitterStaysWithinTheBaseAndNeverPassesTheCeiling) {
  mcpud::Backoff backoff(100ms, 800ms, 0.5);
  std::chrono::milliseconds base = 100ms;
  for (int i = 0; i < 50; ++i) {
    const auto delay = backoff.next();
    EXPECT_GE(delay, base / 2) << "attempt " << i;
    EXPECT_LE(delay, base) << "attempt " << i;
    base = std::min(base * 2, std::chrono::milliseconds(800));
  }
}

TEST(Backoff, CeilingBelowTheFirstDelayIsRaisedToIt) {
  mcpud::Backoff backoff(300ms, 100ms, 0.0);
  EXPECT_EQ(backoff.next(), 300ms);
  EXPECT_EQ(backoff.next(), 300ms);
}
