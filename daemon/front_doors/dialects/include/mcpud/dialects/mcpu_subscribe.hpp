// SPDX-License-Identifier: MIT
// MCP/U's side of the subscription mechanism: `subscribe {uris:[...]}` and
// `unsubscribe {uris:[...]}`, delivering the same notifications/resources/updated
// messages MCP clients get after resources/subscribe.
#pragma once

#include <functional>
#include <string_view>

#include "mcpud/core/dispatcher.hpp"
#include "mcpud/core/event_hub.hpp"

namespace mcpud::dialects {

// Whether the resource a URI names exists for `caller` (a serial session: one it may use).
using ResourceExists = std::function<bool(std::string_view uri, const Caller& caller)>;

// A subscription to a URI that names no resource `exists` knows is refused
// (RESOURCE_NOT_FOUND, naming the element), as MCP's resources/subscribe is.
void install_mcpu_subscribe(rpc::Dispatcher& dispatcher, EventHub& hub, ResourceExists exists);

}  // namespace mcpud::dialects
