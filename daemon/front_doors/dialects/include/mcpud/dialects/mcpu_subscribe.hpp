// SPDX-License-Identifier: MIT
// MCP/U's side of the subscription mechanism: `subscribe {uris:[...]}` and
// `unsubscribe {uris:[...]}`, delivering the same notifications/resources/updated
// messages MCP clients get after resources/subscribe.
#pragma once

#include "mcpud/core/dispatcher.hpp"
#include "mcpud/core/event_hub.hpp"

namespace mcpud::dialects {

void install_mcpu_subscribe(rpc::Dispatcher& dispatcher, EventHub& hub);

}  // namespace mcpud::dialects
