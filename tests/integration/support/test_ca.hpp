// SPDX-License-Identifier: MIT
// Throwaway certificates for the TLS tests, made with the openssl command: a
// CA, and server certificates it signs for localhost and 127.0.0.1.
#pragma once

#include <string>

#include "support/daemon_process.hpp"

namespace mcpud::it {

// Makes `<name>-ca.pem`/`.key` in `dir` and a server certificate it signs,
// `<name>-server.pem`/`.key`; false (with a test failure) when openssl cannot.
bool make_certificates(const TempDir& dir, const std::string& name);

// Signs a new server certificate (a new serial and key) with the CA `ca_name`
// made before, written to `<name>-server.pem`/`.key`: a renewal.
bool renew_server_certificate(const TempDir& dir, const std::string& ca_name, const std::string& name);

}  // namespace mcpud::it
