// SPDX-License-Identifier: MIT
// What mcu-sim and mcu-simavr share: the pty that plays the UART, and the stdin/stdout side channel.
#include "device_port.hpp"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

namespace mcpu_tools {

int openDevicePty(std::string* path) {
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) return -1;
  *path = ptsname(master);
  const int slave = open(path->c_str(), O_RDWR | O_NOCTTY);  // kept open on purpose
  if (slave < 0) return -1;
  termios t;
  tcgetattr(slave, &t);
  cfmakeraw(&t);
  tcsetattr(slave, TCSANOW, &t);
  fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
  return master;
}

bool linkPty(const std::string& target, const std::string& link, const char* program) {
  unlink(link.c_str());
  if (symlink(target.c_str(), link.c_str()) == 0) return true;
  fprintf(stderr, "%s: cannot link %s: %s\n", program, link.c_str(), strerror(errno));
  return false;
}

bool parsePair(const char* text, long* a, long* b) {
  char* end;
  *a = strtol(text, &end, 10);
  if (end == text || *end != '=') return false;
  const char* second = end + 1;
  *b = strtol(second, &end, 10);
  return end != second && *end == '\0';
}

Command parseCommand(const std::string& line) {
  Command c;
  c.line = line;
  char verb[16] = {0};
  const int n = sscanf(line.c_str(), "%15s %ld %ld", verb, &c.a, &c.b);
  if (n >= 1) c.verb = verb;
  c.args = n > 1 ? n - 1 : 0;
  return c;
}

bool handleLinkVerb(const Command& c, LinkState* link, volatile sig_atomic_t* stop) {
  if (c.verb == "mute" || c.verb == "unmute") {
    link->mute = c.verb == "mute";
  } else if (c.verb == "dropped") {
    printf("dropped %lu\n", link->dropped);
  } else if (c.verb == "quit") {
    *stop = 1;
  } else {
    return false;
  }
  return true;
}

void answer(const Command& c, bool handled) {
  if (handled) {
    printf("ok %s\n", c.verb.c_str());
  } else if (!c.verb.empty()) {
    printf("error unknown command: %s\n", c.line.c_str());
  }
  fflush(stdout);
}

bool readCommands(int fd, std::string* pending, void (*handle)(const std::string&)) {
  char buf[256];
  const ssize_t n = read(fd, buf, sizeof(buf));
  if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return false;
  for (ssize_t i = 0; i < n; ++i) {
    if (buf[i] != '\n') {
      pending->push_back(buf[i]);
      continue;
    }
    handle(*pending);
    pending->clear();
  }
  return true;
}

}  // namespace mcpu_tools
