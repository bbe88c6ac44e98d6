// SPDX-License-Identifier: MIT
// A small Arduino core for Linux: pins in memory, a clock, and Streams over fds or memory.
#include "Arduino.h"

#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

FdStream Serial;

namespace {

struct Board {
  int level[mcpu_host::kPins] = {};
  int pwm[mcpu_host::kPins] = {};
  int mode[mcpu_host::kPins] = {};
  int analog[8] = {};
  mcpu_host::PinObserver observer = nullptr;
  bool manual_clock = false;
  unsigned long manual_ms = 0;
};

Board& board() {
  static Board b;
  return b;
}

unsigned long long nowUs() {
  static timespec start = [] {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t;
  }();
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<unsigned long long>(t.tv_sec - start.tv_sec) * 1000000ULL + (t.tv_nsec / 1000) -
         start.tv_nsec / 1000;
}

}  // namespace

int FdStream::fill() {
  if (pos_ < len_) return static_cast<int>(len_ - pos_);
  if (fd_ < 0) return 0;
  const ssize_t n = ::read(fd_, buf_, sizeof(buf_));
  pos_ = 0;
  len_ = n > 0 ? static_cast<size_t>(n) : 0;
  return static_cast<int>(len_);
}

int FdStream::available() { return fill(); }

int FdStream::read() { return fill() > 0 ? buf_[pos_++] : -1; }

size_t FdStream::write(const uint8_t* p, size_t n) {
  size_t done = 0;
  while (fd_ >= 0 && done < n) {
    const ssize_t w = ::write(fd_, p + done, n - done);
    if (w > 0) {
      done += static_cast<size_t>(w);
    } else if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
      pollfd pfd{fd_, POLLOUT, 0};
      ::poll(&pfd, 1, 100);  // a UART blocks when its buffer is full, and so do we
    } else {
      break;  // the peer went away: drop the output like a UART with nobody listening
    }
  }
  return n;
}

unsigned long millis() {
  if (board().manual_clock) return board().manual_ms;
  return static_cast<unsigned long>(nowUs() / 1000);
}

unsigned long micros() {
  if (board().manual_clock) return board().manual_ms * 1000;
  return static_cast<unsigned long>(nowUs());
}

void delay(unsigned long ms) {
  if (board().manual_clock) {
    board().manual_ms += ms;
    return;
  }
  usleep(static_cast<useconds_t>(ms * 1000));
}

void pinMode(uint8_t pin, uint8_t mode) {
  if (pin < mcpu_host::kPins) board().mode[pin] = mode;
}

void digitalWrite(uint8_t pin, uint8_t value) {
  if (pin >= mcpu_host::kPins) return;
  const int level = value ? 1 : 0;
  const bool changed = board().level[pin] != level;
  board().level[pin] = level;
  if (changed && board().observer) board().observer(pin, false, level);
}

int digitalRead(uint8_t pin) { return pin < mcpu_host::kPins ? board().level[pin] : 0; }

int analogRead(uint8_t pin) {
  const uint8_t channel = pin >= A0 ? pin - A0 : pin;
  return channel < 8 ? board().analog[channel] : 0;
}

void analogWrite(uint8_t pin, int value) {
  if (pin >= mcpu_host::kPins) return;
  const bool changed = board().pwm[pin] != value;
  board().pwm[pin] = value;
  if (changed && board().observer) board().observer(pin, true, value);
}

namespace mcpu_host {

void reset() {
  PinObserver keep = board().observer;
  board() = Board();
  board().observer = keep;
}
void setAnalog(uint8_t channel, int raw) {
  if (channel < 8) board().analog[channel] = raw;
}
void setDigital(uint8_t pin, bool level) {
  if (pin < kPins) board().level[pin] = level ? 1 : 0;
}
int level(uint8_t pin) { return pin < kPins ? board().level[pin] : 0; }
int pwm(uint8_t pin) { return pin < kPins ? board().pwm[pin] : 0; }
int mode(uint8_t pin) { return pin < kPins ? board().mode[pin] : 0; }
void setObserver(PinObserver observer) { board().observer = observer; }
void useManualClock(bool manual) {
  board().manual_clock = manual;
  board().manual_ms = 0;
}
void advance(unsigned long ms) { board().manual_ms += ms; }

}  // namespace mcpu_host
