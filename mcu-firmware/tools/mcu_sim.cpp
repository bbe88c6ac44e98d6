// SPDX-License-Identifier: MIT
// mcu-sim: the UnoBasic example sketch running on Linux, serving MCP/U on a pseudo-terminal.
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <string>

#include "../examples/UnoBasic/UnoBasic.ino"

namespace {

volatile sig_atomic_t g_stop = 0;
bool g_mute = false;
unsigned long g_dropped = 0;  // bytes thrown away while muted

void onSignal(int) { g_stop = 1; }

void usage() {
  fprintf(stderr,
          "usage: mcu-sim [--link PATH] [--no-schemas] [--mute] [--adc CH=MV]... [--din PIN=0|1]...\n"
          "               [--banner TEXT]\n"
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

bool parsePair(const char* text, long* a, long* b) {
  char* end;
  *a = strtol(text, &end, 10);
  if (end == text || (*end != '=' && *end != ' ')) return false;
  const char* second = end + 1;
  *b = strtol(second, &end, 10);
  return end != second;
}

// One side-channel command; answers on stdout.
void command(const std::string& line) {
  char verb[16] = {0};
  long a = 0, b = 0;
  const int n = sscanf(line.c_str(), "%15s %ld %ld", verb, &a, &b);
  const std::string v = n >= 1 ? verb : "";
  if (v == "adc" && n == 3) {
    mcpu_host::setAnalog(static_cast<uint8_t>(a), rawFromMillivolts(b));
  } else if (v == "adcraw" && n == 3) {
    mcpu_host::setAnalog(static_cast<uint8_t>(a), static_cast<int>(b));
  } else if (v == "din" && n == 3) {
    mcpu_host::setDigital(static_cast<uint8_t>(a), b != 0);
  } else if (v == "mute") {
    g_mute = true;
  } else if (v == "unmute") {
    g_mute = false;
  } else if (v == "level" && n >= 2) {
    printf("level %ld %d\n", a, mcpu_host::level(static_cast<uint8_t>(a)));
  } else if (v == "dropped") {
    printf("dropped %lu\n", g_dropped);
  } else if (v == "quit") {
    g_stop = 1;
  } else if (v.empty()) {
    return;
  } else {
    printf("error unknown command: %s\n", line.c_str());
    fflush(stdout);
    return;
  }
  printf("ok %s\n", verb);
  fflush(stdout);
}

int openPty(std::string* path) {
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) return -1;
  *path = ptsname(master);
  // Raw mode, set through a slave fd we keep open so the master never sees a hang-up
  // between clients (a real UART does not notice its host closing the port either).
  const int slave = open(path->c_str(), O_RDWR | O_NOCTTY);
  if (slave < 0) return -1;
  termios t;
  tcgetattr(slave, &t);
  cfmakeraw(&t);
  tcsetattr(slave, TCSANOW, &t);
  fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
  return master;
}

}  // namespace

int main(int argc, char** argv) {
  std::string link, banner;
  bool schemas = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    long a, b;
    if (arg == "--link" && has_value) {
      link = argv[++i];
    } else if (arg == "--no-schemas") {
      schemas = false;
    } else if (arg == "--mute") {
      g_mute = true;
    } else if (arg == "--banner" && has_value) {
      banner = argv[++i];
    } else if (arg == "--adc" && has_value && parsePair(argv[++i], &a, &b)) {
      mcpu_host::setAnalog(static_cast<uint8_t>(a), rawFromMillivolts(b));
    } else if (arg == "--din" && has_value && parsePair(argv[++i], &a, &b)) {
      mcpu_host::setDigital(static_cast<uint8_t>(a), b != 0);
    } else {
      usage();
      return arg == "--help" || arg == "-h" ? 0 : 2;
    }
  }
  std::string pty;
  const int master = openPty(&pty);
  if (master < 0) {
    fprintf(stderr, "mcu-sim: cannot open a pty: %s\n", strerror(errno));
    return 1;
  }
  if (!link.empty()) {
    unlink(link.c_str());
    if (symlink(pty.c_str(), link.c_str()) != 0) {
      fprintf(stderr, "mcu-sim: cannot link %s: %s\n", link.c_str(), strerror(errno));
      return 1;
    }
  }
  signal(SIGINT, onSignal);
  signal(SIGTERM, onSignal);
  signal(SIGPIPE, SIG_IGN);

  Serial.attach(master);
  mcpu_host::setObserver(report);
  setup();
  mcp.setSchemas(schemas);
  if (!banner.empty()) Serial.println(banner.c_str());  // boot noise, as real boards print
  printf("pty %s\n", pty.c_str());
  fflush(stdout);

  std::string input;
  bool stdin_open = true;
  while (!g_stop) {
    pollfd fds[2] = {{master, POLLIN, 0}, {0, static_cast<short>(stdin_open ? POLLIN : 0), 0}};
    poll(fds, 2, 5);
    if (fds[1].revents & (POLLIN | POLLHUP)) {
      char buf[256];
      const ssize_t n = read(0, buf, sizeof(buf));
      if (n <= 0) stdin_open = false;  // no side channel any more; keep serving
      for (ssize_t i = 0; i < n; ++i) {
        if (buf[i] != '\n') {
          input.push_back(buf[i]);
          continue;
        }
        command(input);
        input.clear();
      }
    }
    if (g_mute) {
      char sink[256];
      for (ssize_t n; (n = read(master, sink, sizeof(sink))) > 0;) g_dropped += static_cast<unsigned long>(n);
    }
    loop();
  }
  if (!link.empty()) unlink(link.c_str());
  return 0;
}
