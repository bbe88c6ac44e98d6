// SPDX-License-Identifier: MIT
// Inside core: whether stderr is the journal, so that a caller skips building
// journal fields that log::journal_send would not send (the audit, on the hot
// path of every actuating call).
#pragma once

namespace mcpud::log {

bool journal_active();

}  // namespace mcpud::log
