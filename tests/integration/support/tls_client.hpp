// SPDX-License-Identifier: MIT
// A blocking TLS client for the tests of mcpud's TLS listeners (OpenSSL, as
// any client library would use it): connects, verifies the server against a CA
// file and the name "localhost", sends bytes and reads until the server closes.
#pragma once

#include <string>

namespace mcpud::it {

struct TlsExchange {
  bool secured = false;  // the handshake succeeded and the certificate was verified
  std::string error;     // why not
  std::string serial;    // the server certificate's serial, hex
  std::string reply;     // everything read after sending, until the server closed or 5 s passed
};

// Connects to 127.0.0.1:`port`, handshakes trusting `ca_file` alone, sends
// `request` and reads the reply.
TlsExchange tls_exchange(int port, const std::string& ca_file, const std::string& request);

}  // namespace mcpud::it
