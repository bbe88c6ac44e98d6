// SPDX-License-Identifier: MIT
// TLS for the listening doors comes from the same module as the uplinks'
// (mcpud-tls.so, loaded on first use); the app asks for it here and hands the
// server to the door. Event loop only.
#pragma once

#include <expected>
#include <memory>
#include <string>

#include "mcpud/io/tls_server.hpp"

namespace mcpud::uplinks {

// A TLS server for `files`, or why there is none: the module is not installed,
// or a file cannot be read or used (the error names it).
std::expected<std::shared_ptr<io::TlsServer>, std::string> open_tls_server(const io::TlsFiles& files);

}  // namespace mcpud::uplinks
