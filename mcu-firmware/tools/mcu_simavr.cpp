// SPDX-License-Identifier: MIT
// mcu-simavr: runs an ATmega328P firmware in simavr with UART0 on a pty and pins on stdin/stdout.
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <string>

#include "device_port.hpp"

extern "C" {
#include <avr_adc.h>
#include <avr_ioport.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>
}

namespace {

volatile sig_atomic_t g_stop = 0;

struct Harness {
  avr_t* avr = nullptr;
  int master = -1;
  bool xon = false;            // the simulated UART can take another byte
  mcpu_tools::LinkState link;  // muted: drop everything the host sends (a device that stopped answering)
  std::string to_mcu;          // bytes read from the pty, not yet given to the UART
  std::string from_mcu;        // bytes the UART sent, not yet written to the pty
};

Harness g;

void onSignal(int) { g_stop = 1; }

void usage() {
  fprintf(stderr,
          "usage: mcu-simavr FIRMWARE.elf [--link PATH] [--mcu atmega328p] [--freq HZ] [--vcc MV] [--fast]\n"
          "                  [--adc CH=MV]... [--mute]\n"
          "UART0 is served on a new pty (raw mode); prints \"pty <path>\" when the MCU runs.\n"
          "stdin commands: adc CH MV | din PIN 0|1 | mute | unmute | dropped | quit\n"
          "stdout reports: pin N V (Arduino pins 2-13, ports D and B) | dropped N | ok <command> | error <why>\n"
          "The simulation is paced to real time unless --fast is given.\n");
}

void uartOut(avr_irq_t*, uint32_t value, void*) { g.from_mcu.push_back(static_cast<char>(value)); }
void uartXon(avr_irq_t*, uint32_t, void*) { g.xon = true; }
void uartXoff(avr_irq_t*, uint32_t, void*) { g.xon = false; }

void pinChanged(avr_irq_t*, uint32_t value, void* param) {
  printf("pin %ld %u\n", reinterpret_cast<long>(param), value ? 1u : 0u);
  fflush(stdout);
}

// Arduino Uno pin numbers: 0-7 are PD0-PD7, 8-13 are PB0-PB5.
avr_irq_t* pinIrq(long pin) {
  if (pin >= 0 && pin <= 7) return avr_io_getirq(g.avr, AVR_IOCTL_IOPORT_GETIRQ('D'), static_cast<int>(pin));
  if (pin >= 8 && pin <= 13) return avr_io_getirq(g.avr, AVR_IOCTL_IOPORT_GETIRQ('B'), static_cast<int>(pin - 8));
  return nullptr;
}

void setAdc(long channel, long mv) {
  if (channel < 0 || channel > 7) return;
  avr_raise_irq(avr_io_getirq(g.avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC0 + static_cast<int>(channel)),
                static_cast<uint32_t>(mv));
}

void command(const std::string& line) {
  const mcpu_tools::Command c = mcpu_tools::parseCommand(line);
  bool handled = true;
  if (c.verb == "adc" && c.args == 2 && c.a >= 0 && c.a <= 7) {
    setAdc(c.a, c.b);
  } else if (c.verb == "din" && c.args == 2 && pinIrq(c.a)) {
    avr_raise_irq(pinIrq(c.a), c.b ? 1 : 0);
  } else {
    handled = mcpu_tools::handleLinkVerb(c, &g.link, &g_stop);
  }
  mcpu_tools::answer(c, handled);
}

long long wallMicros() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<long long>(t.tv_sec) * 1000000LL + t.tv_nsec / 1000;
}

// Moves bytes between the pty, the UART and stdin; waits up to timeout_ms for any of them.
void pump(int timeout_ms, std::string* input) {
  pollfd fds[2] = {{g.master, POLLIN, 0}, {0, POLLIN, 0}};
  if (!g.from_mcu.empty()) fds[0].events |= POLLOUT;
  poll(fds, 2, timeout_ms);
  if (!g.from_mcu.empty()) {
    const ssize_t w = write(g.master, g.from_mcu.data(), g.from_mcu.size());
    if (w > 0) g.from_mcu.erase(0, static_cast<size_t>(w));
  }
  if (g.to_mcu.size() < 4096) {
    char buf[512];
    const ssize_t n = read(g.master, buf, sizeof(buf));
    if (n > 0 && g.link.mute) g.link.dropped += static_cast<unsigned long>(n);
    if (n > 0 && !g.link.mute) g.to_mcu.append(buf, static_cast<size_t>(n));
  }
  if (fds[1].revents & POLLIN) mcpu_tools::readCommands(0, input, command);
}

}  // namespace

int main(int argc, char** argv) {
  std::string firmware, link, mcu = "atmega328p";
  unsigned long freq = 16000000;
  long vcc = 5000;
  bool fast = false;
  std::string adc_pairs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--link" && has_value) {
      link = argv[++i];
    } else if (arg == "--mcu" && has_value) {
      mcu = argv[++i];
    } else if (arg == "--freq" && has_value) {
      freq = strtoul(argv[++i], nullptr, 10);
    } else if (arg == "--vcc" && has_value) {
      vcc = strtol(argv[++i], nullptr, 10);
    } else if (arg == "--fast") {
      fast = true;
    } else if (arg == "--mute") {
      g.link.mute = true;
    } else if (arg == "--adc" && has_value) {
      adc_pairs += std::string(argv[++i]) + " ";
    } else if (arg[0] != '-' && firmware.empty()) {
      firmware = arg;
    } else {
      usage();
      return arg == "--help" || arg == "-h" ? 0 : 2;
    }
  }
  if (firmware.empty()) {
    usage();
    return 2;
  }
  elf_firmware_t fw;
  memset(&fw, 0, sizeof(fw));
  if (elf_read_firmware(firmware.c_str(), &fw) != 0) {
    fprintf(stderr, "mcu-simavr: cannot read %s\n", firmware.c_str());
    return 1;
  }
  g.avr = avr_make_mcu_by_name(mcu.c_str());
  if (!g.avr) {
    fprintf(stderr, "mcu-simavr: unknown MCU %s\n", mcu.c_str());
    return 1;
  }
  avr_init(g.avr);
  avr_load_firmware(g.avr, &fw);
  g.avr->frequency = static_cast<uint32_t>(freq);
  g.avr->vcc = g.avr->avcc = g.avr->aref = static_cast<uint32_t>(vcc);
  g.avr->log = LOG_ERROR;

  // Our own pty instead of simavr's uart_pty part, which always links /tmp/simavr-uart0.
  uint32_t flags = 0;
  avr_ioctl(g.avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
  flags &= ~AVR_UART_FLAG_STDIO;
  avr_ioctl(g.avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
  avr_irq_register_notify(avr_io_getirq(g.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uartOut, nullptr);
  avr_irq_register_notify(avr_io_getirq(g.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), uartXon, nullptr);
  avr_irq_register_notify(avr_io_getirq(g.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), uartXoff, nullptr);
  for (long pin = 2; pin <= 13; ++pin) avr_irq_register_notify(pinIrq(pin), pinChanged, reinterpret_cast<void*>(pin));
  for (size_t pos = 0; pos < adc_pairs.size();) {
    const size_t end = adc_pairs.find(' ', pos);
    long ch, mv;
    if (!mcpu_tools::parsePair(adc_pairs.substr(pos, end - pos).c_str(), &ch, &mv) || ch < 0 || ch > 7) {
      usage();
      return 2;
    }
    setAdc(ch, mv);
    pos = end + 1;
  }
  std::string pty;
  g.master = mcpu_tools::openDevicePty(&pty);
  if (g.master < 0) {
    fprintf(stderr, "mcu-simavr: cannot open a pty: %s\n", strerror(errno));
    return 1;
  }
  if (!link.empty() && !mcpu_tools::linkPty(pty, link, "mcu-simavr")) return 1;
  signal(SIGINT, onSignal);
  signal(SIGTERM, onSignal);
  printf("pty %s\n", pty.c_str());
  fflush(stdout);

  std::string input;
  const long long start_us = wallMicros();
  int state = cpu_Running;
  while (!g_stop && state != cpu_Done && state != cpu_Crashed) {
    for (int i = 0; i < 2000 && state != cpu_Done && state != cpu_Crashed; ++i) {
      if (g.xon && !g.to_mcu.empty()) {
        const uint8_t byte = static_cast<uint8_t>(g.to_mcu[0]);
        g.to_mcu.erase(0, 1);
        avr_raise_irq(avr_io_getirq(g.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT), byte);
      }
      state = avr_run(g.avr);
    }
    // Pace simulated time to the wall clock (the MCU's millis() then means real milliseconds).
    const long long sim_us = static_cast<long long>(g.avr->cycle * 1000000ULL / g.avr->frequency);
    const long long ahead_us = sim_us - (wallMicros() - start_us);
    pump(!fast && ahead_us > 1000 ? static_cast<int>(ahead_us / 1000) : 0, &input);
  }
  if (!link.empty()) unlink(link.c_str());
  if (state == cpu_Crashed) {
    fprintf(stderr, "mcu-simavr: the MCU crashed\n");
    return 1;
  }
  return 0;
}
