// SPDX-License-Identifier: MIT
// The dashboard's safety controls over HTTP (safety_api.hpp).
#include "safety_api.hpp"

#include <algorithm>
#include <charconv>

#include "http_policy.hpp"

namespace mcpud::http {
namespace {

using nlohmann::json;

SafetyApiResponse failure(unsigned status, std::string message) {
  return {status, json{{"error", std::move(message)}}.dump()};
}

SafetyApiResponse done(Result<void> outcome) {
  if (outcome) return {200, R"({"ok":true})"};
  return failure(outcome.error().name == "RESOURCE_NOT_FOUND" ? 404 : 409, outcome.error().message);
}

// The body of a POST: a JSON object, or the failure that says why not.
std::expected<json, SafetyApiResponse> object_body(const SafetyApiRequest& request) {
  // Only JSON: a form another site posts cannot carry this type without asking first (CORS).
  if (!is_json_media_type(request.content_type))
    return std::unexpected(failure(415, "Content-Type must be application/json"));
  if (request.body.empty()) return json::object();
  auto body = json::parse(request.body, nullptr, false);
  if (!body.is_object()) return std::unexpected(failure(400, "the body must be a JSON object"));
  return body;
}

std::expected<std::uint64_t, SafetyApiResponse> call_id(const json& body) {
  const auto id = body.find("id");
  if (id == body.end() || !id->is_number_unsigned())
    return std::unexpected(failure(400, "id: expected the waiting call's id (a whole number, from GET /api/safety)"));
  return id->get<std::uint64_t>();
}

std::expected<std::uint64_t, SafetyApiResponse> after_of(std::string_view query) {
  if (query.empty()) return 0;
  constexpr std::string_view kAfter = "after=";
  std::uint64_t after = 0;
  const auto digits = query.substr(kAfter.size());
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), after);
  if (!query.starts_with(kAfter) || ec != std::errc{} || end != digits.data() + digits.size())
    return std::unexpected(
        failure(400, "the query takes after=N (a sequence number), not '" + std::string(query.substr(0, 100)) + "'"));
  return after;
}

SafetyApiResponse serve_read(std::string_view what, const SafetyApiRequest& request, SafetyControl& safety) {
  if (what.empty()) return {200, safety.state().dump()};
  const auto after = after_of(request.query);
  if (!after) return after.error();
  return {200, safety.audit_since(*after).dump()};
}

SafetyApiResponse serve_action(std::string_view what, const SafetyApiRequest& request, SafetyControl& safety) {
  auto body = object_body(request);
  if (!body) return body.error();
  if (what == "/approve" || what == "/deny") {
    const auto id = call_id(*body);
    if (!id) return id.error();
    return done(what == "/approve" ? safety.approve(*id, request.by) : safety.deny(*id, request.by));
  }
  if (what == "/estop") {
    const auto reason = body->value("reason", json("from the dashboard"));
    if (!reason.is_string()) return failure(400, "reason: expected a string");
    safety.emergency_stop(request.by, reason.get_ref<const std::string&>().substr(0, 200));
    return done({});
  }
  safety.reset_emergency_stop(request.by);
  return done({});
}

}  // namespace

SafetyApiResponse serve_safety_api(const SafetyApiRequest& request, SafetyControl* safety,
                                   std::string_view dashboard_token) {
  if (dashboard_token.empty())
    return failure(403,
                   "The dashboard's safety controls are off: set [http] dashboard_token (a secret of their own, "
                   "not [http] token) to approve, deny, stop and reset from the page");
  if (!bearer_accepted(request.authorization, dashboard_token)) {
    auto refused = failure(401, "Missing or wrong dashboard token ([http] dashboard_token)");
    refused.challenge = true;
    return refused;
  }
  if (!safety) return failure(503, "The safety gate is not running");
  const auto what = request.path.substr(kSafetyApiPath.size());
  const bool read = what.empty() || what == "/audit";
  const bool action = what == "/approve" || what == "/deny" || what == "/estop" || what == "/reset";
  if (!read && !action)
    return failure(404,
                   "Not found: the dashboard's safety API has GET /api/safety, GET /api/safety/audit and POST "
                   "/api/safety/approve, /deny, /estop and /reset");
  const std::string_view wanted = read ? "GET" : "POST";
  if (request.method != wanted) {
    auto refused = failure(405, std::string(request.path) + " takes " + std::string(wanted));
    refused.allow = wanted;
    return refused;
  }
  return read ? serve_read(what, request, *safety) : serve_action(what, request, *safety);
}

constexpr auto kWrongKeyWindow = std::chrono::minutes(1);

std::uint32_t WrongKeys::wait_s(std::string_view address, Clock::time_point now) const {
  const auto it = tallies_.find(address);
  if (it == tallies_.end() || it->second.count < kMaxWrong) return 0;
  const auto left = it->second.since + kWrongKeyWindow - now;
  if (left <= Clock::duration::zero()) return 0;
  return static_cast<std::uint32_t>(std::chrono::ceil<std::chrono::seconds>(left).count());
}

void WrongKeys::note(std::string_view address, Clock::time_point now) {
  auto it = tallies_.find(address);
  if (it == tallies_.end()) {
    if (tallies_.size() >= kMaxAddresses) {
      tallies_.erase(std::min_element(tallies_.begin(), tallies_.end(),
                                      [](const auto& a, const auto& b) { return a.second.since < b.second.since; }));
    }
    it = tallies_.emplace(std::string(address), Tally{now, 0}).first;
  }
  if (now - it->second.since >= kWrongKeyWindow) it->second = Tally{now, 0};
  ++it->second.count;
}

}  // namespace mcpud::http
