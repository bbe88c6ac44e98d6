// SPDX-License-Identifier: MIT
// The stdio client: a LineSession over StdioStream.
#include "mcpud/transports/stdio_session.hpp"

#include "line_session.hpp"
#include "mcpud/core/log.hpp"
#include "stdio_stream.hpp"

namespace mcpud::transports {

void serve_stdio(boost::asio::io_context& io, rpc::Engine& engine, SessionSet& sessions, const SessionLimits& limits,
                 std::function<void()> on_closed) {
  auto session = std::make_shared<LineSession<StdioStream>>(StdioStream(io), engine, limits, "stdin/stdout", "stdio",
                                                            [&sessions, on_closed = std::move(on_closed)](Session& s) {
                                                              log::info("stdio", "client closed stdin; stopping");
                                                              sessions.remove(&s);
                                                              on_closed();
                                                            });
  sessions.add(session);
  log::info("stdio", "serving one client on stdin/stdout (MCP/U and MCP)");
  session->start();
}

}  // namespace mcpud::transports
