// SPDX-License-Identifier: MIT
// The stdio client: a LineSession over StdioStream.
#include "mcpud/transports/stdio_session.hpp"

#include "line_session.hpp"
#include "mcpud/core/log.hpp"
#include "stdio_stream.hpp"

namespace mcpud::transports {

void serve_stdio(boost::asio::io_context& io, rpc::Engine& engine, SessionSet& sessions, const SessionLimits& limits,
                 std::function<void(bool failed)> on_closed) {
  using StdioSession = LineSession<StdioStream>;
  auto session = std::make_shared<StdioSession>(
      StdioStream(io), engine, limits, "stdin/stdout", "stdio",
      [&sessions, on_closed = std::move(on_closed)](Session& s) {
        const auto write_error = static_cast<StdioSession&>(s).write_error();
        if (write_error) {
          log::error("stdio", "cannot write to stdout: ", write_error.message(), "; stopping");
        } else {
          log::info("stdio", "client closed stdin; stopping");
        }
        sessions.remove(&s);
        on_closed(static_cast<bool>(write_error));
      });
  sessions.add(session);
  log::info("stdio", "serving one client on stdin/stdout (MCP/U and MCP)");
  session->start();
}

}  // namespace mcpud::transports
