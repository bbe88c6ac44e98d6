// SPDX-License-Identifier: MIT
// `mcpud --stdio`: one client on the daemon's own stdin and stdout (logs stay on
// stderr), for AI hosts that spawn the server they talk to.
#pragma once

#include <functional>
#include <memory>

#include <boost/asio/io_context.hpp>

#include "mcpud/core/json_rpc.hpp"
#include "mcpud/transports/session.hpp"

namespace mcpud::transports {

// Starts serving stdin/stdout; `on_closed` runs once when stdin ends (after the
// last replies are written; `failed` false) or stdout breaks (`failed` true:
// replies were lost, and the log says why).
void serve_stdio(boost::asio::io_context& io, rpc::Engine& engine, SessionSet& sessions, const SessionLimits& limits,
                 std::function<void(bool failed)> on_closed);

}  // namespace mcpud::transports
