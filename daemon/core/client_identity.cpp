// SPDX-License-Identifier: MIT
// Telling the keepers of what a client owned that it went away.
#include "mcpud/core/client_identity.hpp"

#include <exception>

namespace mcpud {

ClientIdentity::~ClientIdentity() {
  for (auto& [keeper, then] : on_gone_) {
    // A destructor must not throw; a keeper that fails to hear of one departure
    // is not worth ending the daemon for.
    try {
      then();
    } catch (const std::exception&) {
      continue;  // the others still hear of it
    }
  }
}

}  // namespace mcpud
