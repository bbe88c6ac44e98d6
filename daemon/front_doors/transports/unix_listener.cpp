// SPDX-License-Identifier: MIT
// Unix socket accept loop: stale-socket cleanup, mode and group, client cap.
#include "mcpud/transports/unix_listener.hpp"

#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "line_session.hpp"
#include "mcpud/core/log.hpp"

namespace mcpud::transports {
namespace {

using boost::asio::local::stream_protocol;

// "pid 1234 uid 1000" from the kernel's credentials of the peer.
std::string peer_name(stream_protocol::socket& socket) {
  ucred cred{};
  socklen_t len = sizeof cred;
  if (getsockopt(socket.native_handle(), SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return "unix peer";
  return "pid " + std::to_string(cred.pid) + " uid " + std::to_string(cred.uid);
}

// Whether a daemon answers on `path` (then it is not ours to remove).
bool someone_listens(boost::asio::io_context& io, const std::string& path) {
  stream_protocol::socket probe(io);
  boost::system::error_code ec;
  probe.connect(stream_protocol::endpoint(path), ec);
  return !ec;
}

std::expected<void, std::string> apply_access(const UnixSocketOptions& o) {
  if (!o.group.empty()) {
    const group* g = getgrnam(o.group.c_str());
    if (!g) return std::unexpected("unix socket " + o.path + ": no group named '" + o.group + "'");
    if (chown(o.path.c_str(), static_cast<uid_t>(-1), g->gr_gid) != 0) {
      return std::unexpected("unix socket " + o.path + ": chgrp " + o.group + ": " + std::strerror(errno));
    }
  }
  if (chmod(o.path.c_str(), o.mode) != 0)
    return std::unexpected("unix socket " + o.path + ": chmod: " + std::strerror(errno));
  return {};
}

}  // namespace

UnixListener::UnixListener(boost::asio::io_context& io, UnixSocketOptions options, rpc::Engine& engine,
                           SessionSet& sessions, const SessionLimits& limits)
    : options_(std::move(options)), engine_(engine), sessions_(sessions), limits_(limits), acceptor_(io) {}

UnixListener::~UnixListener() { close(); }

std::expected<void, std::string> UnixListener::open() {
  // sockaddr_un holds 108 bytes with the terminating NUL; Asio throws on a longer path.
  if (options_.path.size() > kMaxUnixPathBytes) {
    return std::unexpected("unix socket path is " + std::to_string(options_.path.size()) + " bytes, longer than " +
                           std::to_string(kMaxUnixPathBytes) + ": " + options_.path.substr(0, 60) + "...");
  }
  auto& listening = acceptor_.socket();
  auto& io = static_cast<boost::asio::io_context&>(listening.get_executor().context());
  std::error_code fs_error;
  if (std::filesystem::is_socket(options_.path, fs_error)) {
    if (someone_listens(io, options_.path))
      return std::unexpected("unix socket " + options_.path + ": another daemon is serving it");
    std::filesystem::remove(options_.path, fs_error);
  }
  boost::system::error_code ec;
  listening.open(stream_protocol(), ec);
  if (!ec) {
    // Created owner-only, so no one connects in the moment before apply_access
    // sets the configured mode (one event-loop thread: the umask is ours).
    const mode_t previous = ::umask(0177);
    listening.bind(stream_protocol::endpoint(options_.path), ec);
    ::umask(previous);
  }
  if (!ec) bound_ = true;
  if (!ec) listening.listen(boost::asio::socket_base::max_listen_connections, ec);
  if (ec) {
    close();
    return std::unexpected("cannot listen on unix socket " + options_.path + ": " + ec.message());
  }
  if (auto access = apply_access(options_); !access) {
    close();
    return access;
  }
  log::info("unix", "listening on ", options_.path, " (MCP/U and MCP)");
  accept_next();
  return {};
}

void UnixListener::close() {
  acceptor_.close();
  if (bound_) {
    bound_ = false;
    std::error_code fs_error;
    std::filesystem::remove(options_.path, fs_error);
  }
}

void UnixListener::accept_next() {
  acceptor_.start("unix", [this](stream_protocol::socket socket) {
    const std::string peer = peer_name(socket);
    // Its clients are MCP hosts, mostly (through mcpud-stdio).
    admit_client(std::move(socket), peer, /*address=*/"", "unix", engine_, sessions_, limits_, ErrorCodes::Mcp);
  });
}

}  // namespace mcpud::transports
