// SPDX-License-Identifier: MIT
// Literal search with std::string_view, regexes with PCRE2 (heap-based
// matching: no recursion per input byte, and a match limit).
#include "mcpud/serial/pattern.hpp"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

namespace mcpud::serial {
namespace {

// Enough for any sane pattern over a 64 KiB window; stops runaway backtracking.
constexpr std::uint32_t kMatchLimit = 1'000'000;

pcre2_code* code_of(void* p) { return static_cast<pcre2_code*>(p); }

}  // namespace

std::expected<std::shared_ptr<const Pattern>, std::string> Pattern::literal(std::string bytes) {
  if (bytes.empty()) return std::unexpected("must not be empty");
  std::shared_ptr<Pattern> pattern(new Pattern());
  pattern->text_ = std::move(bytes);
  return pattern;
}

std::expected<std::shared_ptr<const Pattern>, std::string> Pattern::regex(const std::string& expression) {
  if (expression.empty()) return std::unexpected("must not be empty");
  int error = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(expression.data()), expression.size(), PCRE2_MULTILINE,
                                   &error, &offset, nullptr);
  if (!code) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(error, message, sizeof message);
    return std::unexpected("invalid regular expression: " + std::string(reinterpret_cast<char*>(message)) +
                           " at offset " + std::to_string(offset));
  }
  std::shared_ptr<Pattern> pattern(new Pattern());
  pattern->text_ = expression;
  pattern->code_ = code;
  return pattern;
}

Pattern::~Pattern() {
  if (code_) pcre2_code_free(code_of(code_));
}

std::optional<Match> Pattern::find(std::string_view subject) const {
  if (!code_) {
    const auto at = subject.find(text_);
    if (at == std::string_view::npos) return std::nullopt;
    return Match{at, at + text_.size()};
  }
  pcre2_match_data* data = pcre2_match_data_create_from_pattern(code_of(code_), nullptr);
  pcre2_match_context* context = pcre2_match_context_create(nullptr);
  pcre2_set_match_limit(context, kMatchLimit);
  const int rc =
      pcre2_match(code_of(code_), reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), 0, 0, data, context);
  std::optional<Match> match;
  if (rc >= 0) {
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data);
    match = Match{ovector[0], ovector[1]};
  }
  pcre2_match_context_free(context);
  pcre2_match_data_free(data);
  return match;
}

}  // namespace mcpud::serial
