// SPDX-License-Identifier: MIT
// Starts and stops the configured uplinks.
#include "app/uplinks.hpp"

#include "uplinks/assistant_uplink.hpp"

namespace mcpud::app {

Uplinks::Uplinks(Context context) : ctx_(std::move(context)) {}
Uplinks::~Uplinks() { close(); }

void Uplinks::reconcile() {
  uplinks::reconcile_assistant_uplink(assistant_, ctx_.config.uplink.assistant,
                                      {ctx_.io, ctx_.registry, ctx_.engine, ctx_.events});
}

void Uplinks::close() { assistant_.reset(); }

std::vector<std::pair<std::string, std::string>> Uplinks::clients() const {
  std::vector<std::pair<std::string, std::string>> out;
  if (assistant_) {
    if (auto row = assistant_->client_row()) out.push_back(std::move(*row));
  }
  return out;
}

}  // namespace mcpud::app
