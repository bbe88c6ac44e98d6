// SPDX-License-Identifier: MIT
// Opening a serial port for one owner only: the kernel enforces it with flock
// (between any two opens, even in one process) and TIOCEXCL (against programs
// that do not use flock).
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <string>
#include <utility>

#include "mcpud/core/error.hpp"
#include "mcpud/io/port_settings.hpp"
#include "mcpud/io/tty_device.hpp"

namespace mcpud::io {

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

// A serial port held by mcpud alone, and the line settings the driver took.
struct OpenPort {
  UniqueFd fd;
  PortSettings settings;
};

// Opens `path` non-blocking, without making it the controlling terminal, locks
// it (flock LOCK_EX | LOCK_NB, then TIOCEXCL) and puts it in raw mode with
// `settings`. Every mcpud component that opens a serial port (the serial tools,
// the tty listener, the MCU bridges) opens it here, so they exclude each other.
// Errors: PORT_ALREADY_IN_USE (locked or exclusive elsewhere), OPEN_ERROR (no
// such device, permission denied, not a tty; the message says which and what to
// do), INVALID_ARGUMENT (settings the driver refuses).
Result<OpenPort> open_serial_port(const std::string& path, const PortSettings& settings);

// The same for a path a client named, after resolve_serial_device() checked it:
// opens `device.path` without following a link, and refuses (OPEN_ERROR) what
// is not the checked device any more.
Result<OpenPort> open_serial_device(const TtyDevice& device, const PortSettings& settings);

// The message for a port someone else holds.
std::string port_in_use_message(const std::string& path);

}  // namespace mcpud::io
