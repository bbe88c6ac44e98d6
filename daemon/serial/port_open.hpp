// SPDX-License-Identifier: MIT
// Opening a serial port for one owner only: the kernel enforces it with flock
// (between any two opens, even in one process) and TIOCEXCL (against programs
// that do not use flock).
#pragma once

#include <string>
#include <utility>

#include "mcpud/core/error.hpp"

namespace mcpud::serial {

// Owns a file descriptor; closes it on destruction.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  ~UniqueFd() { reset(); }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void reset();
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// Opens `path` non-blocking, without making it the controlling terminal, and
// locks it: flock(LOCK_EX | LOCK_NB), then TIOCEXCL. Errors:
// PORT_ALREADY_IN_USE (locked or exclusive elsewhere), OPEN_ERROR (no such
// device, permission denied, not a tty; the message says which and what to do).
Result<UniqueFd> open_exclusive(const std::string& path);

// Takes the advisory lock every mcpud component takes on a serial port
// (flock LOCK_EX | LOCK_NB). False, with errno set (EWOULDBLOCK: another open
// holds it), when it cannot. A kernel built without file locking (ENOSYS) cannot
// enforce it; that is no reason to refuse the port, so it counts as taken.
bool lock_port(int fd);

// The message for a port someone else holds, shared with the tty listener's log.
std::string port_in_use_message(const std::string& path);

}  // namespace mcpud::serial
