// SPDX-License-Identifier: MIT
// The pre-parse scan of a request line: nesting depth and repeated keys.
#include "request_scan.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <span>
#include <string>
#include <vector>

#include "mcpud/core/json_rpc.hpp"

namespace mcpud::rpc {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 4> kMembers = {"jsonrpc", "id", "method", "params"};
constexpr std::array<std::string_view, 3> kEnvelopeMembers = {"session_id", "type", "payload"};
// Requests sit at most three containers deep: envelope > payload batch > request.
constexpr std::size_t kTrackedLevels = 3;
// Objects nested deeper are not checked for repeated keys: the engine refuses a
// line nested deeper than its max_depth (64) before parsing it anyway.
constexpr std::size_t kKeyCheckedLevels = 128;
// Up to this many keys an object is checked pair by pair; more are sorted.
constexpr std::size_t kPairwiseKeys = 16;
// Marks the binary value that holds a repeated nested key ('R').
constexpr std::uint64_t kRepeatedKeySubtype = 0x52;

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

// What the scan knows of one open container that may be or hold requests.
struct Level {
  Role role = Role::other;
  bool payload_value = false;                 // root object: the value being read is the one of "payload"
  bool in_payload = false;                    // request or batch: under the root object's "payload"
  bool reported = false;                      // request: already reported a repeated member or key
  unsigned seen = 0;                          // request: the members named so far, one bit each
  std::string_view member;                    // request: the member whose value is being read
  std::size_t element = 0;                    // batch: index of the element being read
  std::optional<std::size_t> index_in_batch;  // request: its place in its batch
};

// Any open container, as far as kKeyCheckedLevels.
struct Container {
  bool object = false;
  bool expect_key = false;    // object: the next string is a key
  std::size_t first_key = 0;  // object: where its keys start in Scanner::keys_
};

// A key of an open object: decoded (for comparing) and as written (for reporting).
struct Key {
  std::string_view name;
  std::string_view written;
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
          close();
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
    if (end < text.size() && depth_ > 0 && depth_ <= kKeyCheckedLevels && containers_[depth_ - 1].expect_key) {
      containers_[depth_ - 1].expect_key = false;
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
    if (depth >= kKeyCheckedLevels) return;
    containers_.push_back(Container{.object = object, .expect_key = object, .first_key = keys_.size()});
    if (depth >= kTrackedLevels) return;
    Level& level = levels_[depth];
    level = Level{};
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

  void close() {
    if (depth_ == 0) return;
    if (depth_ <= kKeyCheckedLevels) {
      const Container closing = containers_.back();
      if (closing.object) check_keys(closing.first_key);
      keys_.resize(closing.first_key);
      containers_.pop_back();
    }
    --depth_;
  }

  void comma() {
    if (depth_ == 0 || depth_ > kKeyCheckedLevels) return;
    Container& container = containers_[depth_ - 1];
    if (container.object) {
      container.expect_key = true;
    } else if (depth_ <= kTrackedLevels) {
      ++levels_[depth_ - 1].element;
    }
  }

  // `quoted` is the key with its quotes.
  void key(std::string_view quoted) {
    const std::string_view written = quoted.substr(1, quoted.size() - 2);
    std::string_view name = written;
    if (written.find('\\') != std::string_view::npos) {
      // "\u0069d" is "id": decode the rare key that escapes anything.
      const auto value = json::parse(quoted, nullptr, false);
      name = decoded_.emplace_back(value.is_string() ? value.get<std::string>() : std::string(written));
    }
    keys_.push_back(Key{name, written});
    if (depth_ > kTrackedLevels) return;
    Level& level = levels_[depth_ - 1];
    if (depth_ == 1) {
      level.payload_value = name == "payload";
      envelope_key(name);
    }
    if (level.role != Role::request) return;
    level.member = name;
    const int member = member_index(name);
    if (member < 0) return;
    const unsigned bit = 1u << member;
    if ((level.seen & bit) != 0 && !level.reported) {
      level.reported = true;
      out_.repeated.push_back(RepeatedMember{level.in_payload, level.index_in_batch, kMembers[member]});
    }
    level.seen |= bit;
  }

  // A key of the root object, which may be an envelope.
  void envelope_key(std::string_view name) {
    const auto found = std::find(kEnvelopeMembers.begin(), kEnvelopeMembers.end(), name);
    if (found == kEnvelopeMembers.end()) return;
    const unsigned bit = 1u << (found - kEnvelopeMembers.begin());
    if ((envelope_seen_ & bit) != 0 && out_.repeated_envelope_member.empty()) out_.repeated_envelope_member = *found;
    envelope_seen_ |= bit;
  }

  // The object closing at depth_ had keys_[first..]: one named twice is
  // reported against the request member it sits in.
  void check_keys(std::size_t first) {
    const auto keys = std::span(keys_).subspan(first);
    if (keys.size() < 2) return;
    const auto repeat = repeated_key(keys);
    if (!repeat) return;
    const std::size_t index = depth_ - 1;
    // The request object's own members were checked one by one as they came.
    if (index < kTrackedLevels && levels_[index].role == Role::request) return;
    for (std::size_t j = std::min(index, kTrackedLevels); j-- > 0;) {
      Level& level = levels_[j];
      if (level.role != Role::request) continue;
      const int member = member_index(level.member);
      if (member >= 0 && !level.reported) {
        level.reported = true;
        out_.repeated.push_back(RepeatedMember{level.in_payload, level.index_in_batch, kMembers[member], *repeat});
      }
      return;  // only the nearest request's business
    }
  }

  // A key of `keys` that another equals, as written; nullopt when all differ.
  static std::optional<std::string_view> repeated_key(std::span<const Key> keys) {
    if (keys.size() <= kPairwiseKeys) {
      for (std::size_t i = 1; i < keys.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
          if (keys[i].name == keys[j].name) return keys[i].written;
        }
      }
      return std::nullopt;
    }
    std::vector<Key> sorted(keys.begin(), keys.end());
    std::sort(sorted.begin(), sorted.end(), [](const Key& a, const Key& b) { return a.name < b.name; });
    const auto twin =
        std::adjacent_find(sorted.begin(), sorted.end(), [](const Key& a, const Key& b) { return a.name == b.name; });
    if (twin == sorted.end()) return std::nullopt;
    return twin->written;
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
  std::vector<Container> containers_;
  std::vector<Key> keys_;
  std::deque<std::string> decoded_;  // escaped keys, decoded (stable addresses for keys_)
  std::size_t depth_ = 0;
  unsigned envelope_seen_ = 0;  // the root's envelope members named so far, one bit each
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
    if (!request->is_object()) continue;
    auto& value = (*request)[std::string(member.key)];
    if (!member.nested) {
      value = json(json::value_t::discarded);
    } else if (!value.is_discarded()) {  // a repeated member stays the first thing to report
      value = json::binary(json::binary_t::container_type(member.nested->begin(), member.nested->end()),
                           kRepeatedKeySubtype);
    }
  }
}

MarkedRepeat repeated_member(json& request, const RequestMembers& found) {
  const std::array<std::pair<const json::iterator*, std::string_view>, 4> members = {{{&found.jsonrpc, kMembers[0]},
                                                                                      {&found.id, kMembers[1]},
                                                                                      {&found.method, kMembers[2]},
                                                                                      {&found.params, kMembers[3]}}};
  for (const auto& [member, name] : members) {
    if (*member == request.end()) continue;
    const json& value = **member;
    if (value.is_discarded()) return {name, {}};
    if (value.is_binary() && value.get_binary().has_subtype() && value.get_binary().subtype() == kRepeatedKeySubtype) {
      const auto& bytes = value.get_binary();
      return {name, std::string(bytes.begin(), bytes.end())};
    }
  }
  return {};
}

}  // namespace mcpud::rpc
