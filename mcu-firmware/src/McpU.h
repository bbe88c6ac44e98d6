// SPDX-License-Identifier: MIT
// MCP/U for Arduino: register pins and tools, then call loop(); hosts discover and call them.
#pragma once
#include <Arduino.h>
#include <stdint.h>

#include "McpuConfig.h"
#include "McpuJsonReader.h"
#include "McpuJsonWriter.h"
#include "McpuText.h"

enum McpPinType : uint8_t { MCP_DIGITAL_OUTPUT, MCP_DIGITAL_INPUT, MCP_PWM_OUTPUT, MCP_ADC_INPUT };
enum McpParamType : uint8_t { MCP_INTEGER, MCP_NUMBER, MCP_BOOLEAN, MCP_STRING, MCP_PIN_REF };

// One declared parameter of a tool: listed in its inputSchema and checked before the
// handler runs (type, presence, integer range).
struct McpParam {
  mcpu::Text name;
  mcpu::Text description;
  McpParamType type;
  bool required;
  bool ranged;
  long minimum;
  long maximum;

  McpParam() : type(MCP_INTEGER), required(false), ranged(false), minimum(0), maximum(0) {}
  McpParam(mcpu::Text n, McpParamType t, mcpu::Text d, bool req = true)
      : name(n), description(d), type(t), required(req), ranged(false), minimum(0), maximum(0) {}
  // An integer parameter limited to [lo, hi].
  McpParam(mcpu::Text n, long lo, long hi, mcpu::Text d, bool req = true)
      : name(n), description(d), type(MCP_INTEGER), required(req), ranged(true), minimum(lo), maximum(hi) {}
};

// How an input pin is sampled in the background (by loop()).
struct McpSampling {
  uint16_t interval_ms = 0;  // 0: not sampled
  uint8_t buffer_size = 0;   // ring buffer of the latest samples (0: none)
  bool summary = false;      // latest/min/max/avg/samples since boot
  bool threshold = false;    // events when leaving [low, high] and coming back
  bool edges = false;        // rising/falling events (digital inputs)
  int16_t low = 0;
  int16_t high = 0;
  uint16_t hysteresis = 0;  // how far inside the range a value must come back

  McpSampling& withBuffer(uint8_t size) {
    buffer_size = size;
    summary = true;
    return *this;
  }
  McpSampling& withThreshold(int16_t lo, int16_t hi, uint16_t hyst = 0) {
    threshold = true;
    low = lo;
    high = hi;
    hysteresis = hyst;
    summary = true;
    return *this;
  }
  McpSampling& withEdges() {
    edges = true;
    return *this;
  }
};

// Summary and ring buffer of `size` samples, one every `interval_ms`.
McpSampling McpBuffered(uint8_t size, uint16_t interval_ms);
// Summary only.
McpSampling McpSummaryOnly(uint16_t interval_ms);
// Summary and threshold events below `min` / above `max`.
McpSampling McpThreshold(int16_t min, int16_t max, uint16_t interval_ms);
// Rising/falling events of a digital input.
McpSampling McpEdges(uint16_t interval_ms);

// Options of a custom tool.
struct McpToolOptions {
  uint32_t polling_ms = 0;  // > 0: hosts call the tool with {} this often
};
McpToolOptions McpPolling(uint32_t interval_ms);

// The arguments of a call, already checked against the tool's declared parameters.
class McpArgs {
 public:
  explicit McpArgs(mcpu::JsonValue params) : params_(params) {}
  bool has(mcpu::Text name) const;
  long getInt(mcpu::Text name, long fallback = 0) const;
  double getNumber(mcpu::Text name, double fallback = 0) const;
  bool getBool(mcpu::Text name, bool fallback = false) const;
  // Copies a string argument into out; returns false (and leaves "" in out) if absent or too long.
  bool getString(mcpu::Text name, char* out, size_t cap) const;
  mcpu::JsonValue raw(mcpu::Text name) const { return params_.member(name); }

 private:
  mcpu::JsonValue params_;
};

// The reply to a call: add result members, or report an error before adding any.
// Single-threaded; lives only while the handler runs.
class McpReply {
 public:
  McpReply(mcpu::JsonWriter& w, const char* id, size_t id_len) : w_(w), id_(id), id_len_(id_len), state_(0) {}
  void add(mcpu::Text key, long v);
  void add(mcpu::Text key, int v) { add(key, static_cast<long>(v)); }
  void add(mcpu::Text key, unsigned long v);
  void add(mcpu::Text key, bool v);
  void add(mcpu::Text key, double v, uint8_t digits = 3);
  void add(mcpu::Text key, mcpu::Text v);
  void add(mcpu::Text key, const char* v) { add(key, mcpu::Text(v)); }
  void add(mcpu::Text key, const __FlashStringHelper* v) { add(key, mcpu::Text(v)); }
  // The writer positioned inside the result object, for arrays or nested objects.
  mcpu::JsonWriter& json();
  // A JSON-RPC error instead of a result; ignored once a result member was added.
  void error(long code, mcpu::Text message, mcpu::Text data_code = mcpu::Text());
  // An error whose message is written in parts: beginError, writer().stringPart..., endError.
  mcpu::JsonWriter& beginError(long code);
  void endError(mcpu::Text data_code = mcpu::Text());
  // Closes the reply (the dispatcher calls this after the handler).
  void finish();

 private:
  void open();
  void envelope(mcpu::Text member);  // {"jsonrpc":"2.0","id":..,"<member>":{
  mcpu::JsonWriter& w_;
  const char* id_;
  size_t id_len_;
  uint8_t state_;  // 0 nothing written, 1 result open, 2 error written, 3 finished
};

typedef void (*McpHandler)(McpArgs& args, McpReply& reply);

namespace mcpu {

struct Builtins;
enum EventType : uint8_t { kThresholdHigh, kThresholdLow, kInRange, kRising, kFalling };

struct PinSlot {
  uint8_t number;
  McpPinType type;
  Text name;
  Text description;
  int16_t output;   // last value written to an output pin
  uint8_t sampler;  // index into the sampler table, 0xFF: not sampled
};

struct Event {
  uint32_t timestamp_ms;
  int16_t value;
  int16_t threshold;
  uint8_t type;  // EventType
};

struct SamplerSlot {
  McpSampling options;
  uint32_t last_ms;
  int16_t* ring;
  uint32_t ring_seq;  // sequence number of the latest sample (0: none yet)
  int16_t latest, min, max;
  unsigned long long count;  // never saturates (2^64 samples)
  long long sum;
  Event* events;
  uint32_t event_seq;
  uint8_t zone;  // 0 inside, 1 above high, 2 below low
};

struct ToolSlot {
  Text name;
  Text description;
  McpHandler handler;
  const McpParam* params;
  uint8_t param_count;
  uint32_t polling_ms;
};

}  // namespace mcpu

#ifndef MCPU_MAX_SAMPLED_PINS
#if defined(__AVR__)
#define MCPU_MAX_SAMPLED_PINS 3
#else
#define MCPU_MAX_SAMPLED_PINS 8
#endif
#endif

// One MCP/U device on one Stream (Serial, a TCP client, ...). Not thread-safe: call
// everything from the Arduino loop.
class McpDevice {
 public:
  McpDevice(mcpu::Text device_name, mcpu::Text version);

  // Starts answering on `stream` (opened by the caller, e.g. Serial.begin(115200)).
  void begin(Stream& stream);
  // Reads what has arrived, answers complete lines, samples pins. Call it often.
  void loop();

  // Registers a pin and sets its mode. False when the table is full, the number is
  // taken, or the sampling storage (MCPU_SAMPLE_POOL, MCPU_EVENT_POOL) is exhausted.
  bool addPin(uint8_t pin, mcpu::Text name, McpPinType type, mcpu::Text description,
              const McpSampling& sampling = McpSampling());
  // Registers a custom tool; `params` (count entries) must outlive the device.
  bool addTool(mcpu::Text name, mcpu::Text description, McpHandler handler, const McpParam* params = nullptr,
               uint8_t count = 0, McpToolOptions options = McpToolOptions());
  template <size_t N>
  bool addTool(mcpu::Text name, mcpu::Text description, const McpParam (&params)[N], McpHandler handler,
               McpToolOptions options = McpToolOptions()) {
    return addTool(name, description, handler, params, static_cast<uint8_t>(N), options);
  }
  bool addTool(mcpu::Text name, mcpu::Text description, McpHandler handler, McpToolOptions options) {
    return addTool(name, description, handler, nullptr, 0, options);
  }

  // Whether list_tools carries inputSchema (always false when built with MCPU_NO_SCHEMAS).
  void setSchemas(bool enabled) { schemas_ = enabled && !MCPU_NO_SCHEMAS; }
  uint8_t pinCount() const { return pin_count_; }

  // Answers one complete request line (without its newline). loop() calls it; tests may too.
  void handleLine(const char* line, size_t n);

  // Sampling of one pin now (loop() does it on the pin's interval).
  void sampleNow(uint8_t pin);

 private:
  friend struct mcpu::Builtins;
  void feed(char c);
  void sampleDue();
  mcpu::PinSlot* findPin(long number);
  mcpu::PinSlot* findPin(const mcpu::JsonValue& ref);
  void takeSample(mcpu::PinSlot& pin, mcpu::SamplerSlot& s);
  void pushEvent(mcpu::SamplerSlot& s, uint8_t type, int16_t value, int16_t threshold);
  bool anySampling(uint8_t what) const;

  void dispatch(mcpu::JsonWriter& w, const mcpu::JsonValue& request, const char* id, size_t id_len);
  void listTools(McpReply& reply);
  void getInfo(McpReply& reply);
  void writeSchema(mcpu::JsonWriter& w, uint8_t builtin, const mcpu::ToolSlot* tool);
  bool checkParams(McpReply& reply, const mcpu::JsonValue& params, uint8_t builtin, const mcpu::ToolSlot* tool);

  mcpu::Text device_;
  mcpu::Text version_;
  Stream* stream_;
  mcpu::PinSlot pins_[MCPU_MAX_PINS];
  mcpu::SamplerSlot samplers_[MCPU_MAX_SAMPLED_PINS];
  mcpu::ToolSlot tools_[MCPU_MAX_TOOLS];
  int16_t sample_pool_[MCPU_SAMPLE_POOL];
  mcpu::Event event_pool_[MCPU_EVENT_POOL];
  uint16_t sample_used_;
  uint16_t event_used_;
  uint8_t pin_count_;
  uint8_t sampler_count_;
  uint8_t tool_count_;
  bool schemas_;
  bool overflow_;
  uint16_t line_len_;
  char line_[MCPU_LINE_MAX + 1];
};
