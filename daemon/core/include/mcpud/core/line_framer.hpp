// SPDX-License-Identifier: MIT
// Splits a byte stream into newline-terminated lines, with a cap on line length.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mcpud {

// Feed bytes as they arrive; complete lines come out without their "\n" or
// "\r\n". A partial line waits for its rest. A line longer than the cap is
// reported once as an overflow and discarded up to its newline, after which
// framing goes on normally. Not thread-safe.
class LineFramer {
 public:
  explicit LineFramer(std::size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {}

  // Calls on_line(std::string_view) for every complete line and on_overflow()
  // once per over-long line, as soon as it passes the cap. Blank lines (nothing,
  // or spaces and tabs) are skipped.
  template <class OnLine, class OnOverflow>
  void feed(std::string_view bytes, OnLine&& on_line, OnOverflow&& on_overflow) {
    feed(bytes, on_line, on_overflow, [](std::size_t) {});
  }
  // The same, and on_overflow_end(std::size_t bytes) once an over-long line's
  // newline arrives, with the line's length (for a peer that should be told how
  // far over it was).
  template <class OnLine, class OnOverflow, class OnOverflowEnd>
  void feed(std::string_view bytes, OnLine&& on_line, OnOverflow&& on_overflow, OnOverflowEnd&& on_overflow_end);

  // At the end of the stream: a last line that never got its newline is a
  // line all the same (`printf '{...}' | nc` sends no newline).
  template <class OnLine, class OnOverflow>
  void finish(OnLine&& on_line, OnOverflow&& on_overflow) {
    feed("\n", on_line, on_overflow);
  }

  // Bytes held for an incomplete line.
  std::size_t pending_bytes() const { return partial_.size(); }
  // While an over-long line is being discarded: its bytes so far; else 0.
  std::size_t overlong_bytes() const { return discarding_ ? discarded_ : 0; }
  std::size_t max_line_bytes() const { return max_line_bytes_; }

 private:
  static std::string_view trim_cr(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  }

  std::size_t max_line_bytes_;
  std::string partial_;
  bool discarding_ = false;    // inside an over-long line, skipping to its newline
  std::size_t discarded_ = 0;  // the bytes of that line so far
};

template <class OnLine, class OnOverflow, class OnOverflowEnd>
void LineFramer::feed(std::string_view bytes, OnLine&& on_line, OnOverflow&& on_overflow,
                      OnOverflowEnd&& on_overflow_end) {
  while (!bytes.empty()) {
    const auto newline = bytes.find('\n');
    const auto chunk = bytes.substr(0, newline);
    if (newline == std::string_view::npos) {
      if (discarding_) {
        discarded_ += chunk.size();
        return;
      }
      // +1 leaves room for the '\r' of a maximal "\r\n"-terminated line.
      if (partial_.size() + chunk.size() > max_line_bytes_ + 1) {
        discarded_ = partial_.size() + chunk.size();
        partial_.clear();
        discarding_ = true;
        on_overflow();
        return;
      }
      partial_.append(chunk);
      return;
    }
    bytes.remove_prefix(newline + 1);
    if (discarding_) {
      discarding_ = false;  // the over-long line ends here and was already reported
      on_overflow_end(discarded_ + trim_cr(chunk).size());
      continue;
    }
    // Fast path: a line wholly inside this read is passed on without a copy.
    if (!partial_.empty()) partial_.append(chunk);
    const auto line = trim_cr(partial_.empty() ? chunk : std::string_view(partial_));
    if (line.size() > max_line_bytes_) {
      on_overflow();
      on_overflow_end(line.size());
    } else if (line.find_first_not_of(" \t") != std::string_view::npos) {
      on_line(line);
    }
    partial_.clear();
  }
}

}  // namespace mcpud
