// SPDX-License-Identifier: MIT
// A bounded, numbered history of texts (JSON records: the audit, the last log
// lines, the last calls), oldest forgotten first. The texts sit back to back in
// blocks of about kBlockBytes: a few large allocations rather than one or more
// per entry, which would leave a full history's heap pages pinned among the
// chunks a load freed, long after the load. Single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace mcpud {

class TextRing {
 public:
  // Keeps at most `capacity` texts (at least 1).
  explicit TextRing(std::size_t capacity);

  // Keeps `text` as entry `seq`, which must be one more than the last one kept
  // (the first may be any number).
  void keep(std::uint64_t seq, std::string_view text);
  void set_capacity(std::size_t capacity);
  std::size_t capacity() const { return capacity_; }
  std::size_t size() const { return size_; }
  // The seq of the oldest text kept; `next` when none is.
  std::uint64_t oldest(std::uint64_t next) const;

  // Calls `visit(seq, text)` for every text kept after `after`, oldest first.
  template <class Visit>
  void since(std::uint64_t after, Visit&& visit) const {
    for (const auto& block : blocks_) {
      for (std::size_t i = block.dropped; i < block.ends.size(); ++i) {
        if (block.first_seq + i <= after) continue;
        const std::size_t begin = i == 0 ? 0 : block.ends[i - 1];
        visit(block.first_seq + i, std::string_view(block.text).substr(begin, block.ends[i] - begin));
      }
    }
  }

 private:
  struct Block {
    std::uint64_t first_seq;          // the seq of the block's first text; the rest follow one by one
    std::string text;                 // the texts, back to back
    std::vector<std::uint32_t> ends;  // where each text ends in `text`
    std::size_t dropped = 0;          // texts at the front already forgotten
  };
  static constexpr std::size_t kBlockBytes = 32 * 1024;

  void forget_oldest();

  std::size_t capacity_;
  std::deque<Block> blocks_;
  std::size_t size_ = 0;
};

}  // namespace mcpud
