// SPDX-License-Identifier: MIT
// mcpud-stdio: the MCP stdio server AI hosts spawn; it relays to the running
// mcpud over its unix socket.
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include <unistd.h>

#include "mcpud/version.hpp"
#include "relay.hpp"

namespace {

constexpr const char* kDefaultSocket = "/run/mcpud/mcpud.sock";

void usage(std::ostream& out) {
  out << "Usage: mcpud-stdio [--socket PATH]\n"
         "Serves MCP on stdin/stdout by relaying to the running mcpud.\n"
         "  -s, --socket PATH  the daemon's unix socket (default $MCPUD_SOCKET, else "
      << kDefaultSocket
      << ")\n"
         "  -h, --help         show this help\n"
         "  -V, --version      print the version\n";
}

}  // namespace

int main(int argc, char** argv) {
  const char* env = std::getenv("MCPUD_SOCKET");
  std::string path = env && *env ? env : kDefaultSocket;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if ((arg == "-s" || arg == "--socket") && i + 1 < argc) {
      path = argv[++i];
    } else if (arg.starts_with("--socket=")) {
      path = std::string(arg.substr(9));
    } else if (arg == "-h" || arg == "--help") {
      usage(std::cout);
      return 0;
    } else if (arg == "-V" || arg == "--version") {
      std::cout << "mcpud-stdio " << mcpud::kVersion << "\n";
      return 0;
    } else {
      std::cerr << "mcpud-stdio: unknown argument '" << arg << "'\n";
      usage(std::cerr);
      return 2;
    }
  }
  std::signal(SIGPIPE, SIG_IGN);  // a vanished host or daemon is an error code, not a death
  std::string error;
  const int socket_fd = mcpud::stdio_relay::connect_unix(path, error);
  if (socket_fd < 0) {
    std::cerr << "mcpud-stdio: cannot connect to mcpud at " << path << ": " << error
              << "\nIs mcpud running? Start it (systemctl start mcpud, or run mcpud) or pass --socket PATH.\n";
    return 1;
  }
  const int status = mcpud::stdio_relay::relay(STDIN_FILENO, STDOUT_FILENO, socket_fd, error);
  if (status != 0) std::cerr << "mcpud-stdio: " << error << "\n";
  ::close(socket_fd);
  return status;
}
