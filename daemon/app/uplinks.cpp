// SPDX-License-Identifier: MIT
// Starts and stops the configured uplinks.
#include "app/uplinks.hpp"

namespace mcpud::app {

Uplinks::Uplinks(Context context) : ctx_(std::move(context)) {}
Uplinks::~Uplinks() { close(); }

void Uplinks::reconcile() {}

void Uplinks::close() {}

}  // namespace mcpud::app
