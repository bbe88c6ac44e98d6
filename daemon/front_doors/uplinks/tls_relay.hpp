// SPDX-License-Identifier: MIT
// The server side of mcpud-tls.so (tls_relay.cpp): TLS on a listening door.
#pragma once

#include <memory>

#include "mcpud/io/tls_server.hpp"

namespace mcpud::uplinks {

// A server for `files`; throws std::runtime_error naming the file that cannot
// be read or used, or the key that does not match the certificate.
std::shared_ptr<io::TlsServer> relaying_tls_server(const io::TlsFiles& files);

}  // namespace mcpud::uplinks
