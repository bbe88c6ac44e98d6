// SPDX-License-Identifier: MIT
// TCP accept loop with a cap on connected clients.
#include "mcpud/transports/tcp_listener.hpp"

#include "line_session.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/io/tcp_endpoint.hpp"

namespace mcpud::transports {
using boost::asio::ip::tcp;

namespace {

// What a client speaking plain MCP/U to a TLS listener is told.
constexpr std::string_view kPlainRefusal =
    R"json({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"This port speaks MCP/U over TLS: )json"
    R"json(connect with TLS (to try it: openssl s_client -quiet -connect HOST:PORT)"}})json"
    "\n";

}  // namespace

TcpListener::TcpListener(boost::asio::io_context& io, std::string spec, rpc::Engine& engine, SessionSet& sessions,
                         const SessionLimits& limits, std::shared_ptr<io::TlsServer> tls)
    : spec_(std::move(spec)),
      engine_(engine),
      sessions_(sessions),
      limits_(limits),
      tls_(std::move(tls)),
      acceptor_(io) {}

std::expected<void, std::string> TcpListener::open() {
  auto endpoint = io::listen_endpoint(spec_);
  if (!endpoint) return std::unexpected(endpoint.error());
  if (const auto ec = io::listen_tcp(acceptor_.socket(), *endpoint))
    return std::unexpected("cannot listen on " + spec_ + ": " + ec.message());
  if (tls_) {
    log::info("tcp", "listening on ", local_address(), " (MCP/U over TLS with ", tls_->certificate_summary(), ")");
  } else {
    log::info("tcp", "listening on ", local_address(), " (MCP/U over TCP)");
  }
  // MCP/U over TCP asks nobody who they are: on another address than loopback,
  // whoever reaches it may call every tool the gate lets through.
  if (!endpoint->address().is_loopback())
    log::warn("tcp", local_address(), " is open beyond this machine with no authentication",
              tls_ ? "" : " and no TLS (listen_tls has it)",
              ": anyone who reaches it may call every tool; listen on a loopback address, or firewall it to the "
              "hosts you trust (docs/mcp.md)");
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
    std::string peer = ec ? "unknown peer" : io::endpoint_text(remote);
    std::string address = ec ? "unknown" : io::peer_group(remote.address());
    socket.set_option(tcp::no_delay(true), ec);
    if (tls_) return secure(std::move(socket), std::move(peer), std::move(address));
    admit_client(std::move(socket), peer, address, "tcp", engine_, sessions_, limits_, ErrorCodes::Mcpu);
  });
}

// The handshake, for a client the limits let in (one they do not is closed:
// it expects TLS, not a refusal in plain text); admit_client() judges them
// again once it is done. The handler holds no listener: a reload may close it.
void TcpListener::secure(tcp::socket socket, std::string peer, std::string address) {
  if (const auto refusal = admission_refusal(sessions_, "tcp", address, limits_))
    return log::info("tcp", peer, ": refused: ", *refusal);
  tls_->accept(std::move(socket), [&engine = engine_, &sessions = sessions_, &limits = limits_, peer = std::move(peer),
                                   address = std::move(address)](io::TlsAccepted accepted) {
    using Outcome = io::TlsAccepted::Outcome;
    if (accepted.outcome == Outcome::failed) return log::info("tcp", peer, ": ", accepted.error);
    if (accepted.outcome == Outcome::not_tls) {
      log::info("tcp", peer, ": refused: plain MCP/U on a TLS port");
      return io::refuse_plaintext(accepted.socket, kPlainRefusal);
    }
    admit_client(std::move(accepted.socket), peer, address, "tcp", engine, sessions, limits, ErrorCodes::Mcpu);
  });
}

}  // namespace mcpud::transports
