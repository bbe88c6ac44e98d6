// SPDX-License-Identifier: MIT
// The TLS servers of the listening doors, one per certificate and key pair
// ([http] tls_cert/tls_key, and tls_cert/tls_key for listen_tls), shared by the
// listeners that name the same pair. A reload reads each pair again, so a
// renewed certificate (certbot, then `systemctl reload mcpud`) is served from
// the next connection on. Event loop only.
#pragma once

#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "mcpud/io/tls_server.hpp"

namespace mcpud::app {

class TlsServers {
 public:
  // The server for `files`: the one already made for them, or a new one. The
  // error names the file that cannot be used, or says the module is missing.
  std::expected<std::shared_ptr<io::TlsServer>, std::string> get(const io::TlsFiles& files);
  // Before a reload to a configuration wanting `wanted`: reads the pairs in
  // use again (one that fails keeps serving its old certificate, and says
  // why) and makes the new ones; an error (a new pair that cannot be used)
  // refuses the reload.
  std::expected<void, std::string> prepare(const std::vector<io::TlsFiles>& wanted);
  // Drops the servers no listener holds any more.
  void forget_unused();

 private:
  std::vector<std::shared_ptr<io::TlsServer>> servers_;
};

}  // namespace mcpud::app
