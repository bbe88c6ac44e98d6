// SPDX-License-Identifier: MIT
// The bytes a connection has to send (replies, notifications, frames),
// gathered so that one system call writes everything queued: bytes are appended
// to `pending` while `writing` is on the wire; the next write takes all of
// `pending` at once. Every connection that writes a byte stream queues here and
// bounds size(): a peer that does not read is dropped, not buffered without
// end. Event loop only.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mcpud::io {

class OutgoingBytes {
 public:
  // Bytes queued and not yet taken by the connection.
  std::size_t size() const { return pending_.size() + writing_.size() - written_; }
  bool empty() const { return size() == 0; }

  void append(std::string_view frame) { pending_.append(frame); }

  // What the next write should send: the rest of the current write, or all
  // pending bytes when that is done.
  std::string_view next() {
    if (writing_.empty()) writing_.swap(pending_);
    return std::string_view(writing_).substr(written_);
  }

  // The connection took `n` bytes of next().
  void consumed(std::size_t n) {
    written_ += n;
    if (written_ < writing_.size()) return;
    written_ = 0;
    // Keep a small buffer for the next write; give a burst's memory back.
    if (writing_.capacity() > kKeptCapacity) {
      std::string().swap(writing_);
    } else {
      writing_.clear();
    }
  }

  void clear() {
    std::string().swap(pending_);
    std::string().swap(writing_);
    written_ = 0;
  }

 private:
  static constexpr std::size_t kKeptCapacity = 64 * 1024;
  std::string pending_;
  std::string writing_;
  std::size_t written_ = 0;
};

}  // namespace mcpud::io
