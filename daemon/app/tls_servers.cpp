// SPDX-License-Identifier: MIT
#include "tls_servers.hpp"

#include <algorithm>

#include "mcpud/core/log.hpp"
#include "mcpud/uplinks/tls_server_module.hpp"

namespace mcpud::app {

std::expected<std::shared_ptr<io::TlsServer>, std::string> TlsServers::get(const io::TlsFiles& files) {
  const auto found =
      std::find_if(servers_.begin(), servers_.end(), [&](const auto& server) { return server->files() == files; });
  if (found != servers_.end()) return *found;
  auto server = uplinks::open_tls_server(files);
  if (server) servers_.push_back(*server);
  return server;
}

std::expected<void, std::string> TlsServers::prepare(const std::vector<io::TlsFiles>& wanted) {
  for (const auto& server : servers_) {
    const auto& files = server->files();
    if (std::find(wanted.begin(), wanted.end(), files) == wanted.end()) continue;
    if (auto reloaded = server->reload(); !reloaded) {
      log::error("tls", reloaded.error(), "; still serving ", server->certificate_summary());
    } else {
      log::info("tls", files.certificate, ": serving ", server->certificate_summary());
    }
  }
  for (const auto& files : wanted) {
    if (auto server = get(files); !server) return std::unexpected(server.error());
  }
  return {};
}

void TlsServers::forget_unused() {
  std::erase_if(servers_, [](const auto& server) { return server.use_count() == 1; });
}

}  // namespace mcpud::app
