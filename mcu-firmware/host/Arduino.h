// SPDX-License-Identifier: MIT
// A small Arduino core for Linux: pins in memory, a clock, and Streams over fds or memory.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <string>

typedef uint8_t byte;
typedef bool boolean;

#define HIGH 1
#define LOW 0
#define INPUT 0
#define OUTPUT 1
#define INPUT_PULLUP 2
#define LED_BUILTIN 13
static const uint8_t A0 = 14, A1 = 15, A2 = 16, A3 = 17, A4 = 18, A5 = 19, A6 = 20, A7 = 21;

// Flash strings are ordinary strings on the host.
class __FlashStringHelper;
#define PROGMEM
#define PSTR(s) (s)
#define F(s) (reinterpret_cast<const __FlashStringHelper*>(s))
#define pgm_read_byte(p) (*reinterpret_cast<const uint8_t*>(p))
#define memcpy_P memcpy

class Print {
 public:
  virtual ~Print() = default;
  virtual size_t write(uint8_t c) = 0;
  virtual size_t write(const uint8_t* p, size_t n) {
    for (size_t i = 0; i < n; ++i) write(p[i]);
    return n;
  }
  size_t print(const char* s) { return write(reinterpret_cast<const uint8_t*>(s), strlen(s)); }
  size_t print(const __FlashStringHelper* s) { return print(reinterpret_cast<const char*>(s)); }
  size_t print(long v) { return print(std::to_string(v).c_str()); }
  size_t println(const char* s = "") { return print(s) + print("\n"); }
  size_t println(const __FlashStringHelper* s) { return print(s) + print("\n"); }
};

class Stream : public Print {
 public:
  virtual int available() = 0;
  virtual int read() = 0;
};

// A Stream over a file descriptor (a pty master in mcu-sim). Reads never block.
class FdStream : public Stream {
 public:
  void attach(int fd) { fd_ = fd; }
  void begin(unsigned long) {}
  int available() override;
  int read() override;
  size_t write(uint8_t c) override { return write(&c, 1); }
  size_t write(const uint8_t* p, size_t n) override;

 private:
  int fill();
  int fd_ = -1;
  uint8_t buf_[256];
  size_t pos_ = 0, len_ = 0;
};

// A Stream over memory, for unit tests: input() queues bytes, output() is what was written.
class MemoryStream : public Stream {
 public:
  void input(const std::string& bytes) { in_ += bytes; }
  std::string& output() { return out_; }
  int available() override { return static_cast<int>(in_.size() - pos_); }
  int read() override { return pos_ < in_.size() ? static_cast<uint8_t>(in_[pos_++]) : -1; }
  size_t write(uint8_t c) override {
    out_.push_back(static_cast<char>(c));
    return 1;
  }

 private:
  std::string in_, out_;
  size_t pos_ = 0;
};

extern FdStream Serial;

unsigned long millis();
unsigned long micros();
void delay(unsigned long ms);
void pinMode(uint8_t pin, uint8_t mode);
void digitalWrite(uint8_t pin, uint8_t value);
int digitalRead(uint8_t pin);
int analogRead(uint8_t pin);
void analogWrite(uint8_t pin, int value);

// Test and simulator access to the simulated board.
namespace mcpu_host {
const uint8_t kPins = 32;
void reset();
void setAnalog(uint8_t channel, int raw);  // channel 0 = A0
void setDigital(uint8_t pin, bool level);  // level seen by digitalRead on an input
int level(uint8_t pin);                    // last digitalWrite (or input level)
int pwm(uint8_t pin);                      // last analogWrite
int mode(uint8_t pin);
// Called after every digitalWrite/analogWrite that changes an output.
typedef void (*PinObserver)(uint8_t pin, bool pwm, int value);
void setObserver(PinObserver observer);
// Manual clock for deterministic tests: millis() only moves with advance().
void useManualClock(bool manual);
void advance(unsigned long ms);
}  // namespace mcpu_host
