// SPDX-License-Identifier: MIT
// What mcu-sim and mcu-simavr share: the pty that plays the UART, and the stdin/stdout side channel.
#pragma once
#include <signal.h>

#include <string>

namespace mcpu_tools {

// Opens a pty in raw mode and returns its non-blocking master (-1 on failure). A slave
// fd stays open, so the master never sees a hang-up between clients, as a UART would not.
int openDevicePty(std::string* path);

// Replaces `link` with a symlink to `target`; prints why and returns false on failure.
bool linkPty(const std::string& target, const std::string& link, const char* program);

// "CH=MV" or "PIN=LEVEL" of a command-line flag.
bool parsePair(const char* text, long* a, long* b);

// One side-channel command: a verb and up to two integer arguments.
struct Command {
  std::string line;
  std::string verb;
  long a = 0;
  long b = 0;
  int args = 0;  // how many integers followed the verb
};
Command parseCommand(const std::string& line);

// The side of the UART a test can silence: a muted device drops what the host sends.
struct LinkState {
  bool mute = false;
  unsigned long dropped = 0;  // bytes thrown away while muted
};

// Carries out the verbs both simulators share (mute, unmute, dropped, quit; quit sets
// *stop); false for any other verb.
bool handleLinkVerb(const Command& c, LinkState* link, volatile sig_atomic_t* stop);
// Prints "ok <verb>" for a handled command, "error unknown command: <line>" for
// another one that is not empty.
void answer(const Command& c, bool handled);

// Reads what fd has and calls handle for each complete line; false at end of file.
bool readCommands(int fd, std::string* pending, void (*handle)(const std::string&));

}  // namespace mcpu_tools
