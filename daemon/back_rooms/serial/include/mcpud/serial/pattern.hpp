// SPDX-License-Identifier: MIT
// What serial_read_until and serial_exec wait for: a literal byte string or a
// regular expression (PCRE2, matched on raw bytes, bounded in effort).
#pragma once

#include <cstddef>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcpud::serial {

struct Match {
  std::size_t begin = 0;
  std::size_t end = 0;  // one past the last byte of the match
};

// Immutable once built; shared by the waiting read that uses it.
class Pattern {
 public:
  // A literal must not be empty. The error says why a regex does not compile
  // ("missing closing parenthesis at offset 3").
  static std::expected<std::shared_ptr<const Pattern>, std::string> literal(std::string bytes);
  static std::expected<std::shared_ptr<const Pattern>, std::string> regex(const std::string& expression);
  ~Pattern();

  // The first match in `subject`, if any. A regex that exceeds its match limit
  // (catastrophic backtracking) counts as no match rather than hanging the loop.
  std::optional<Match> find(std::string_view subject) const;
  const std::string& text() const { return text_; }

  Pattern(const Pattern&) = delete;
  Pattern& operator=(const Pattern&) = delete;

 private:
  Pattern() = default;
  std::string text_;
  void* code_ = nullptr;  // pcre2_code_8*, owned
};

}  // namespace mcpud::serial
