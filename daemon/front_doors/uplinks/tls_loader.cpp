// SPDX-License-Identifier: MIT
// Finds and loads mcpud-tls.so the first time an uplink or a listener asks for TLS.
#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <mcpud/version.hpp>

#include "mcpud/uplinks/tls_server_module.hpp"
#include "tls_link.hpp"

namespace mcpud::uplinks {
namespace {

namespace fs = std::filesystem;

// Where the module is looked for, first found wins: $MCPUD_MODULE_DIR (ignored
// in a setuid or setgid process), the directory of mcpud itself (a build tree),
// and the directory the package installs it to.
std::vector<fs::path> module_candidates() {
  std::vector<fs::path> candidates;
  if (const char* dir = ::secure_getenv("MCPUD_MODULE_DIR"); dir && *dir) candidates.emplace_back(dir);
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(self.parent_path());
  candidates.emplace_back(MCPUD_MODULE_DIR);
  for (auto& dir : candidates) dir /= kTlsModuleFile;
  return candidates;
}

struct LoadedModule {
  TlsModule* module = nullptr;
  std::string error;  // why there is none
};

LoadedModule load_module() {
  std::string tried;
  for (const auto& path : module_candidates()) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
      tried += (tried.empty() ? "" : ", ") + path.string();
      continue;
    }
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) return {nullptr, "cannot load the TLS module: " + std::string(::dlerror())};
    auto* entry = reinterpret_cast<TlsModuleEntry>(::dlsym(handle, kTlsModuleEntry));
    std::string error = std::string("has no ") + kTlsModuleEntry;
    if (TlsModule* module = entry ? entry(kVersion, error) : nullptr) return {module, {}};
    ::dlclose(handle);  // refused: a fixed file at the same path can be loaded next time
    return {nullptr, path.string() + ": " + error};
  }
  return {nullptr, std::string("the TLS module ") + kTlsModuleFile + " is not installed (looked for " + tried + ")"};
}

}  // namespace

TlsModule& tls_module() {
  // Kept once loaded, never unloaded: links, clients and error categories from it
  // live as long as the daemon. A failure is not kept: installing the module
  // lets the next attempt succeed without a restart.
  static TlsModule* module = nullptr;
  if (module) return *module;
  auto loaded = load_module();
  if (!loaded.module) throw std::runtime_error(loaded.error);
  module = loaded.module;
  return *module;
}

std::expected<std::shared_ptr<io::TlsServer>, std::string> open_tls_server(const io::TlsFiles& files) {
  try {
    return tls_module().make_server(files);
  } catch (const std::runtime_error& e) {
    return std::unexpected(e.what());
  }
}

}  // namespace mcpud::uplinks
