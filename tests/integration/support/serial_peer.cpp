// SPDX-License-Identifier: MIT
// SerialPeer: a pty master with bounded, poll-based reads and writes.
#include "support/serial_peer.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>

#include <gtest/gtest.h>

#include "support/line_client.hpp"

namespace mcpud::it {

SerialPeer::SerialPeer(const std::filesystem::path& link) : link_(link.string()) {
  auto pty = open_pty();
  if (!pty) return;
  master_ = pty->master;
  slave_ = pty->slave_path;
  ::fcntl(master_, F_SETFL, ::fcntl(master_, F_GETFL) | O_NONBLOCK);
  std::error_code ec;
  std::filesystem::remove(link, ec);
  std::filesystem::create_symlink(slave_, link, ec);
  if (ec) ADD_FAILURE() << "symlink " << link << ": " << ec.message();
}

SerialPeer::~SerialPeer() { unplug(); }

void SerialPeer::unplug() {
  if (master_ >= 0) ::close(master_);
  master_ = -1;
}

bool SerialPeer::write(std::string_view bytes, Deadline deadline) {
  while (!bytes.empty()) {
    const auto n = ::write(master_, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
    pollfd pfd{master_, POLLOUT, 0};
    if (deadline.expired() || ::poll(&pfd, 1, deadline.poll_ms()) < 0) return false;
  }
  return true;
}

std::string SerialPeer::read(std::size_t count, Deadline deadline) {
  std::string out;
  char buffer[4096];
  while (out.size() < count && !deadline.expired()) {
    pollfd pfd{master_, POLLIN, 0};
    if (::poll(&pfd, 1, deadline.poll_ms()) <= 0) continue;
    const auto n = ::read(master_, buffer, std::min(sizeof buffer, count - out.size()));
    if (n > 0) out.append(buffer, static_cast<std::size_t>(n));
    if (n < 0 && errno != EAGAIN && errno != EINTR) break;
  }
  return out;
}

}  // namespace mcpud::it
