// SPDX-License-Identifier: MIT
// The pre-parse scan of a request line: nesting depth and repeated JSON-RPC members.
#include "request_scan.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "mcpud/core/json_rpc.hpp"

namespace mcpud::rpc {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 4> kMembers = {"jsonrpc", "id", "method", "params"};
// Requests sit at most three containers deep: envelope > payload batch > request.
constexpr std::size_t kTrackedLevels = 3;

enum class Role : unsigned char { other, request, batch };

// What a byte outside strings means to the scan, in one table load: the scan
// runs on every request line, ahead of the parser.
enum Byte : unsigned char { kPlain, kQuote, kOpenObject, kOpenArray, kClose, kComma };
constexpr std::array<Byte, 256> kBytes = [] {
  std::array<Byte, 256> bytes{};
  bytes['"'] = kQuote;
  bytes['{'] = kOpenObject;
  bytes['['] = kOpenArray;
  bytes['}'] = kClose;
  bytes[']'] = kClose;
  bytes[','] = kComma;
  return bytes;
}();

// What the scan knows of one open container.
struct Level {
  Role role = Role::other;
  bool object = false;
  bool expect_key = false;                    // object: the next string is a key
  bool payload_value = false;                 // root object: the value being read is the one of "payload"
  bool in_payload = false;                    // request or batch: under the root object's "payload"
  bool reported = false;                      // request: already reported a repeated member
  unsigned seen = 0;                          // request: the members named so far, one bit each
  std::size_t element = 0;                    // batch: index of the element being read
  std::optional<std::size_t> index_in_batch;  // request: its place in its batch
};

class Scanner {
 public:
  RequestScan run(std::string_view text) {
    const auto* data = reinterpret_cast<const unsigned char*>(text.data());
    for (std::size_t i = 0; i < text.size(); ++i) {
      const Byte byte = kBytes[data[i]];
      if (byte == kPlain) continue;
      switch (byte) {
        case kQuote:
          i = string_end(text, i);
          break;
        case kOpenObject:
        case kOpenArray:
          open(byte == kOpenObject);
          break;
        case kClose:
          if (depth_ > 0) --depth_;
          break;
        case kComma:
          comma();
          break;
        default:
          break;
      }
    }
    return std::move(out_);
  }

 private:
  // The index of the quote that closes the string opening at `open` (the size
  // of `text` when none does); a key on the way is looked at.
  std::size_t string_end(std::string_view text, std::size_t open) {
    const std::size_t end = closing_quote(text, open);
    if (end < text.size() && depth_ > 0 && depth_ <= kTrackedLevels && levels_[depth_ - 1].expect_key) {
      levels_[depth_ - 1].expect_key = false;
      key(text.substr(open, end + 1 - open));
    }
    return end;
  }

  // Most of a request's bytes are inside strings: memchr finds the next quote,
  // which ends the string unless an odd run of backslashes escapes it.
  static std::size_t closing_quote(std::string_view text, std::size_t open) {
    std::size_t end = open + 1;
    for (;;) {
      const auto* quote = static_cast<const char*>(std::memchr(text.data() + end, '"', text.size() - end));
      if (quote == nullptr) return text.size();
      end = static_cast<std::size_t>(quote - text.data());
      std::size_t backslashes = 0;
      while (end - backslashes > open + 1 && text[end - backslashes - 1] == '\\') ++backslashes;
      if (backslashes % 2 == 0) return end;
      ++end;
    }
  }

  void open(bool object) {
    const std::size_t depth = depth_++;
    out_.deepest = std::max(out_.deepest, depth_);
    if (depth >= kTrackedLevels) return;
    Level& level = levels_[depth];
    level = Level{.object = object, .expect_key = object};
    if (depth == 0) {
      level.role = object ? Role::request : Role::batch;
      return;
    }
    const Level& parent = levels_[depth - 1];
    if (parent.role == Role::batch && object) {
      level.role = Role::request;
      level.in_payload = parent.in_payload;
      level.index_in_batch = parent.element;
    } else if (depth == 1 && parent.payload_value) {
      level.role = object ? Role::request : Role::batch;
      level.in_payload = true;
    }
  }

  void comma() {
    if (depth_ == 0 || depth_ > kTrackedLevels) return;
    Level& level = levels_[depth_ - 1];
    if (level.object) {
      level.expect_key = true;
    } else {
      ++level.element;
    }
  }

  // `quoted` is the key with its quotes.
  void key(std::string_view quoted) {
    const bool escaped = quoted.find('\\') != std::string_view::npos;
    std::string decoded;
    if (escaped) {
      // "\u0069d" is "id": decode the rare key that escapes anything.
      const auto value = json::parse(quoted, nullptr, false);
      if (value.is_string()) decoded = value.get<std::string>();
    }
    const std::string_view name = escaped ? std::string_view(decoded) : quoted.substr(1, quoted.size() - 2);
    Level& level = levels_[depth_ - 1];
    if (depth_ == 1) level.payload_value = name == "payload";
    if (level.role != Role::request) return;
    const int member = member_index(name);
    if (member < 0) return;
    const unsigned bit = 1u << member;
    if ((level.seen & bit) != 0 && !level.reported) {
      level.reported = true;
      out_.repeated.push_back(RepeatedMember{level.in_payload, level.index_in_batch, kMembers[member]});
    }
    level.seen |= bit;
  }

  // The index of `name` in kMembers, or -1; by length first (this runs for every key).
  static int member_index(std::string_view name) {
    switch (name.size()) {
      case 2:
        return name == kMembers[1] ? 1 : -1;
      case 6:
        return name == kMembers[2] ? 2 : name == kMembers[3] ? 3 : -1;
      case 7:
        return name == kMembers[0] ? 0 : -1;
      default:
        return -1;
    }
  }

  std::array<Level, kTrackedLevels> levels_;
  std::size_t depth_ = 0;
  RequestScan out_;
};

}  // namespace

RequestScan scan_request_text(std::string_view text) { return Scanner().run(text); }

void mark_repeated_members(json& message, const std::vector<RepeatedMember>& repeated) {
  for (const auto& member : repeated) {
    json* request = &message;
    if (member.in_payload) {
      // Only the envelope's payload is a request; a plain request's "payload" is not read.
      if (!is_envelope(message)) continue;
      request = &message["payload"];
    }
    if (member.element) {
      if (!request->is_array() || *member.element >= request->size()) continue;
      request = &(*request)[*member.element];
    }
    if (request->is_object()) (*request)[std::string(member.key)] = json(json::value_t::discarded);
  }
}

std::string_view repeated_member(json& request, const RequestMembers& found) {
  const auto marked = [&](const json::iterator& member) { return member != request.end() && member->is_discarded(); };
  if (marked(found.jsonrpc)) return kMembers[0];
  if (marked(found.id)) return kMembers[1];
  if (marked(found.method)) return kMembers[2];
  if (marked(found.params)) return kMembers[3];
  return {};
}

}  // namespace mcpud::rpc
