// SPDX-License-Identifier: MIT
// The dashboard's safety controls: the human's side of the board's safety
// (core/safety_control.hpp) over HTTP, behind a secret of its own ([http]
// dashboard_token), which no MCP client holds: an agent with the MCP token
// cannot approve its own calls or lift a stop. A function of the request, apart
// from the connection, so unit tests call it without sockets. Event loop only.
//
//   GET  /api/safety               the e-stop and the waiting calls, with their arguments
//   GET  /api/safety/audit?after=N the audit ring after sequence number N
//   POST /api/safety/approve       {"id": N}: the waiting call N runs, once
//   POST /api/safety/deny          {"id": N}: it is refused (APPROVAL_DENIED)
//   POST /api/safety/estop         {"reason": "..."}: every output to safe, nothing actuates
//   POST /api/safety/reset         {}: the stop is lifted
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "mcpud/core/safety_control.hpp"

namespace mcpud::http {

inline constexpr std::string_view kSafetyApiPath = "/api/safety";

struct SafetyApiRequest {
  std::string_view method;  // "GET", "POST", ...
  std::string_view path;    // without the query
  std::string_view query;   // after '?', or empty
  std::string_view authorization;
  std::string_view content_type;
  std::string_view body;
  std::string by;  // who decides, for the audit and the log: "dashboard 192.0.2.7"
};

// A JSON body: the result, or {"error": "..."} saying what was wrong.
struct SafetyApiResponse {
  unsigned status = 200;
  std::string body;
  bool challenge = false;  // 401: send WWW-Authenticate
  std::string_view allow;  // 405: the methods the path takes
};

// `safety` null or `dashboard_token` empty: every request is refused (503,
// 403) saying why.
SafetyApiResponse serve_safety_api(const SafetyApiRequest& request, SafetyControl* safety,
                                   std::string_view dashboard_token);

// Wrong keys by address: one that sent kMaxWrong of them within a minute waits
// for the rest of that minute (429), so the key cannot be guessed at line rate.
// Bounded: past kMaxAddresses the one tallied longest ago is forgotten.
class WrongKeys {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr unsigned kMaxWrong = 10;
  static constexpr std::size_t kMaxAddresses = 256;

  // Whole seconds `address` must still wait; 0 when it may try.
  std::uint32_t wait_s(std::string_view address, Clock::time_point now) const;
  void note(std::string_view address, Clock::time_point now);

 private:
  struct Tally {
    Clock::time_point since;
    unsigned count = 0;
  };
  std::map<std::string, Tally, std::less<>> tallies_;
};

}  // namespace mcpud::http
