// SPDX-License-Identifier: MIT
// mcpud-timer-floor: the floor of sampling at a fixed rate. One periodic timerfd
// waited for with epoll and read, as mcpud's sampler does, and nothing else per
// tick; its CPU is what the wake-ups alone cost on this machine, and the ticks
// it misses (expirations that came together in one read because the process
// woke more than a period late) are what the machine loses without any work.
//
//   mcpud-timer-floor [--interval-us N] [--seconds S]
//
// Prints one line: TIMER interval_us=.. seconds=.. wakeups=.. missed=.. cpu_pct=..
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace {

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

long number(const char* option, const char* text, long low, long high) {
  char* end = nullptr;
  const long value = text ? std::strtol(text, &end, 10) : 0;
  if (!text || *end != '\0' || value < low || value > high) {
    std::fprintf(stderr, "mcpud-timer-floor: %s takes a number from %ld to %ld\n", option, low, high);
    std::exit(2);
  }
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  long interval_us = 1000;
  long seconds = 10;
  for (int i = 1; i < argc; i += 2) {
    const std::string_view option = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (option == "--interval-us") {
      interval_us = number("--interval-us", value, 100, 10'000'000);
    } else if (option == "--seconds") {
      seconds = number("--seconds", value, 1, 3600);
    } else {
      std::fprintf(stderr, "usage: mcpud-timer-floor [--interval-us N] [--seconds S]\n");
      return 2;
    }
  }
  const int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  const int poller = epoll_create1(EPOLL_CLOEXEC);
  epoll_event interest{};
  interest.events = EPOLLIN;
  const timespec period{interval_us / 1'000'000, (interval_us % 1'000'000) * 1000};
  const itimerspec spec{period, period};
  if (timer < 0 || poller < 0 || epoll_ctl(poller, EPOLL_CTL_ADD, timer, &interest) != 0 ||
      timerfd_settime(timer, 0, &spec, nullptr) != 0) {
    std::fprintf(stderr, "mcpud-timer-floor: %s\n", std::strerror(errno));
    return 1;
  }
  const auto start = std::chrono::steady_clock::now();
  const auto end = start + std::chrono::seconds(seconds);
  const double cpu_start = cpu_seconds();
  std::uint64_t wakeups = 0, missed = 0;
  while (std::chrono::steady_clock::now() < end) {
    epoll_event ready{};
    if (epoll_wait(poller, &ready, 1, -1) != 1) continue;
    std::uint64_t expirations = 0;
    if (read(timer, &expirations, sizeof expirations) != sizeof expirations) continue;
    ++wakeups;
    missed += expirations - 1;
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("TIMER interval_us=%ld seconds=%.1f wakeups=%llu missed=%llu cpu_pct=%.2f\n", interval_us, elapsed,
              static_cast<unsigned long long>(wakeups), static_cast<unsigned long long>(missed),
              100.0 * (cpu_seconds() - cpu_start) / elapsed);
  return 0;
}
