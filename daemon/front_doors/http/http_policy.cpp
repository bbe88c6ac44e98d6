// SPDX-License-Identifier: MIT
// Origin, bearer token, Accept and session id rules of the HTTP front door.
#include "http_policy.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <random>
#include <system_error>

#include "host_rule.hpp"

namespace mcpud::http {

OriginVerdict judge_origin(std::string_view origin, const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), origin) != allowed.end()) return OriginVerdict::accepted;
  // Sent by a sandboxed frame or a file: page, never one of ours (RFC 6454 7.3).
  if (origin == "null") return OriginVerdict::not_allowed;
  for (const std::string_view scheme : {"http://", "https://"}) {
    if (!origin.starts_with(scheme)) continue;
    // The Host grammar, so "http://127.0.0.1:1@evil.example" and a port past 65535 are not read as loopback.
    const auto host = parse_host(origin.substr(scheme.size()));
    if (!host) return OriginVerdict::malformed;
    return is_loopback(*host) ? OriginVerdict::accepted : OriginVerdict::not_allowed;
  }
  return origin.find("://") == std::string_view::npos ? OriginVerdict::malformed : OriginVerdict::not_allowed;
}

namespace {

// What /mcp answers with, and the wildcards that cover them.
constexpr std::string_view kTypes[] = {"application/json", "text/event-stream", "*/*", "application/*", "text/*"};

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

bool same_letters(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// The weight a media range's parameters give it: its q, or 1 without a
// readable one (only a client that says q=0 refuses a type).
double weight(std::string_view parameters) {
  while (!parameters.empty()) {
    const auto semicolon = parameters.find(';');
    const auto parameter = trimmed(parameters.substr(0, semicolon));
    if (parameter.size() > 2 && same_letters(parameter.substr(0, 2), "q=")) {
      double q = 0;  // from_chars: a decimal point whatever the locale
      const auto read = std::from_chars(parameter.data() + 2, parameter.data() + parameter.size(), q);
      return read.ec == std::errc() ? q : 1.0;
    }
    parameters = semicolon == std::string_view::npos ? std::string_view() : parameters.substr(semicolon + 1);
  }
  return 1.0;
}

// Whether one of the media ranges of `accept` is taken by `takes` (given the
// range's type) and has a weight above q=0.
template <class Takes>
bool any_range(std::string_view accept, Takes takes) {
  while (!accept.empty()) {
    const auto comma = accept.find(',');
    const auto range = accept.substr(0, comma);
    accept = comma == std::string_view::npos ? std::string_view() : accept.substr(comma + 1);
    const auto semicolon = range.find(';');
    if (takes(trimmed(range.substr(0, semicolon))) &&
        (semicolon == std::string_view::npos || weight(range.substr(semicolon + 1)) > 0))
      return true;
  }
  return false;
}

}  // namespace

bool accepts_mcp_reply(std::string_view accept) {
  if (trimmed(accept).empty()) return true;
  return any_range(accept, [](std::string_view type) {
    return std::any_of(std::begin(kTypes), std::end(kTypes), [&](std::string_view t) { return same_letters(type, t); });
  });
}

bool lists_media_type(std::string_view accept, std::string_view type) {
  return any_range(accept, [&](std::string_view listed) { return same_letters(listed, type); });
}

bool is_json_media_type(std::string_view content_type) {
  return same_letters(trimmed(content_type.substr(0, content_type.find(';'))), "application/json");
}

bool bearer_accepted(std::string_view authorization, std::string_view token) {
  if (token.empty()) return true;
  // The scheme is case-insensitive (RFC 7235): "bearer" and "BEARER" are Bearer.
  constexpr std::string_view kScheme = "bearer ";
  if (authorization.size() < kScheme.size() ||
      !std::equal(kScheme.begin(), kScheme.end(), authorization.begin(),
                  [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); }))
    return false;
  auto given = authorization.substr(kScheme.size());
  while (given.starts_with(' ')) given.remove_prefix(1);
  if (given.size() != token.size()) return false;
  unsigned char difference = 0;
  for (std::size_t i = 0; i < token.size(); ++i) difference |= static_cast<unsigned char>(given[i] ^ token[i]);
  return difference == 0;
}

std::string new_session_id() {
  // Straight from the kernel's generator: a session id is a capability.
  std::random_device device;
  constexpr std::array<char, 16> kHex = {'0', '1', '2', '3', '4', '5', '6', '7',
                                         '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
  std::string id;
  for (int word = 0; word < 4; ++word) {
    auto bits = device();
    for (int i = 0; i < 8; ++i, bits >>= 4) id.push_back(kHex[bits & 0xf]);
  }
  return id;
}

}  // namespace mcpud::http
