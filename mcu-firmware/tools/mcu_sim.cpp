// SPDX-License-Identifier: MIT
// mcu-sim: the UnoBasic example sketch running on Linux, serving MCP/U on a pseudo-terminal.
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <string>

#include "../examples/UnoBasic/UnoBasic.ino"
#include "device_port.hpp"

namespace {

volatile sig_atomic_t g_stop = 0;
mcpu_tools::LinkState g_link;

void onSignal(int) { g_stop = 1; }

void usage() {
  fprintf(stderr,
          "usage: mcu-sim [--link PATH] [--no-schemas] [--mute] [--adc CH=MV]... [--din PIN=0|1]...\n"
          "               [--banner TEXT] [--crlf] [--device NAME]\n"
          "Serves the UnoBasic sketch (device \"uno-demo\") on a new pty and prints \"pty <path>\".\n"
          "stdin commands: adc CH MV | adcraw CH RAW | din PIN 0|1 | mute | unmute | dropped | level PIN | quit\n"
          "stdout reports: pin N V (digital output changed) | pwm N V | level N V | dropped N | ok <command> | error "
          "<why>\n");
}

int rawFromMillivolts(long mv) {
  if (mv < 0) mv = 0;
  if (mv > MCPU_ADC_REF_MV) mv = MCPU_ADC_REF_MV;
  return static_cast<int>((mv * MCPU_ADC_MAX + MCPU_ADC_REF_MV / 2) / MCPU_ADC_REF_MV);
}

void report(uint8_t pin, bool pwm, int value) {
  printf("%s %u %d\n", pwm ? "pwm" : "pin", pin, value);
  fflush(stdout);
}

// One side-channel command; answers on stdout.
void command(const std::string& line) {
  const mcpu_tools::Command c = mcpu_tools::parseCommand(line);
  const uint8_t a = static_cast<uint8_t>(c.a);
  bool handled = true;
  if (c.verb == "adc" && c.args == 2) {
    mcpu_host::setAnalog(a, rawFromMillivolts(c.b));
  } else if (c.verb == "adcraw" && c.args == 2) {
    mcpu_host::setAnalog(a, static_cast<int>(c.b));
  } else if (c.verb == "din" && c.args == 2) {
    mcpu_host::setDigital(a, c.b != 0);
  } else if (c.verb == "level" && c.args == 1) {
    printf("level %u %d\n", a, mcpu_host::level(a));
  } else {
    handled = mcpu_tools::handleLinkVerb(c, &g_link, &g_stop);
  }
  mcpu_tools::answer(c, handled);
}

}  // namespace

int main(int argc, char** argv) {
  std::string link, banner, device;
  bool schemas = true, crlf = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    long a, b;
    if (arg == "--link" && has_value) {
      link = argv[++i];
    } else if (arg == "--no-schemas") {
      schemas = false;
    } else if (arg == "--crlf") {
      crlf = true;
    } else if (arg == "--device" && has_value) {
      device = argv[++i];
    } else if (arg == "--mute") {
      g_link.mute = true;
    } else if (arg == "--banner" && has_value) {
      banner = argv[++i];
    } else if (arg == "--adc" && has_value && mcpu_tools::parsePair(argv[++i], &a, &b)) {
      mcpu_host::setAnalog(static_cast<uint8_t>(a), rawFromMillivolts(b));
    } else if (arg == "--din" && has_value && mcpu_tools::parsePair(argv[++i], &a, &b)) {
      mcpu_host::setDigital(static_cast<uint8_t>(a), b != 0);
    } else {
      usage();
      return arg == "--help" || arg == "-h" ? 0 : 2;
    }
  }
  std::string pty;
  const int master = mcpu_tools::openDevicePty(&pty);
  if (master < 0) {
    fprintf(stderr, "mcu-sim: cannot open a pty: %s\n", strerror(errno));
    return 1;
  }
  if (!link.empty() && !mcpu_tools::linkPty(pty, link, "mcu-sim")) return 1;
  signal(SIGINT, onSignal);
  signal(SIGTERM, onSignal);
  signal(SIGPIPE, SIG_IGN);

  Serial.attach(master);
  mcpu_host::setObserver(report);
  setup();
  mcp.setSchemas(schemas);
  mcp.setCrLf(crlf);
  if (!device.empty()) mcp.setIdentity(device.c_str(), "1.0.0");
  if (!banner.empty()) Serial.println(banner.c_str());  // boot noise, as real boards print
  printf("pty %s\n", pty.c_str());
  fflush(stdout);

  std::string input;
  bool stdin_open = true;
  while (!g_stop) {
    pollfd fds[2] = {{master, POLLIN, 0}, {0, static_cast<short>(stdin_open ? POLLIN : 0), 0}};
    poll(fds, 2, 5);
    if (fds[1].revents & (POLLIN | POLLHUP)) {
      stdin_open = mcpu_tools::readCommands(0, &input, command);  // at EOF: keep serving
    }
    if (g_link.mute) {
      char sink[256];
      for (ssize_t n; (n = read(master, sink, sizeof(sink))) > 0;) g_link.dropped += static_cast<unsigned long>(n);
    }
    loop();
  }
  if (!link.empty()) unlink(link.c_str());
  return 0;
}
