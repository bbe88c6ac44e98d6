// SPDX-License-Identifier: MIT
// TCP accept loop with a cap on connected clients.
#include "mcpud/transports/tcp_listener.hpp"

#include "line_session.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/io/tcp_endpoint.hpp"

namespace mcpud::transports {
using boost::asio::ip::tcp;

TcpListener::TcpListener(boost::asio::io_context& io, std::string spec, rpc::Engine& engine, SessionSet& sessions,
                         const SessionLimits& limits)
    : spec_(std::move(spec)), engine_(engine), sessions_(sessions), limits_(limits), acceptor_(io) {}

std::expected<void, std::string> TcpListener::open() {
  auto endpoint = io::listen_endpoint(spec_);
  if (!endpoint) return std::unexpected(endpoint.error());
  if (const auto ec = io::listen_tcp(acceptor_.socket(), *endpoint))
    return std::unexpected("cannot listen on " + spec_ + ": " + ec.message());
  log::info("tcp", "listening on ", local_address(), " (MCP/U over TCP)");
  // MCP/U over TCP asks nobody who they are: on another address than loopback,
  // whoever reaches it may call every tool the gate lets through.
  if (!endpoint->address().is_loopback())
    log::warn("tcp", local_address(),
              " is open beyond this machine, with no authentication and no TLS: anyone who reaches it may call "
              "every tool; listen on a loopback address, or firewall it to the hosts you trust (docs/mcp.md)");
  accept_next();
  return {};
}

void TcpListener::close() { acceptor_.close(); }

std::string TcpListener::local_address() const {
  boost::system::error_code ec;
  const auto endpoint = acceptor_.socket().local_endpoint(ec);
  return ec ? spec_ : io::endpoint_text(endpoint);
}

void TcpListener::accept_next() {
  acceptor_.start("tcp", [this](tcp::socket socket) {
    boost::system::error_code ec;
    const auto remote = socket.remote_endpoint(ec);
    const std::string peer = ec ? "unknown peer" : io::endpoint_text(remote);
    const std::string address = ec ? "unknown" : io::peer_group(remote.address());
    socket.set_option(tcp::no_delay(true), ec);
    admit_client(std::move(socket), peer, address, "tcp", engine_, sessions_, limits_, ErrorCodes::Mcpu);
  });
}

}  // namespace mcpud::transports
