// SPDX-License-Identifier: MIT
// Pin registration and background sampling: ring buffers, summaries and event queues.
#include "McpU.h"
#include "McpuBuiltins.h"

using mcpu::Event;
using mcpu::JsonType;
using mcpu::JsonValue;
using mcpu::PinSlot;
using mcpu::SamplerSlot;
using mcpu::Text;

bool McpDevice::addPin(uint8_t pin, Text name, McpPinType type, Text description, const McpSampling& sampling) {
  if (pin_count_ >= MCPU_MAX_PINS || findPin(static_cast<long>(pin)) || name.empty()) return false;
  for (uint8_t i = 0; i < pin_count_; ++i) {
    if (pins_[i].name.equals(name)) return false;  // names address pins too
  }
  const bool sampled = sampling.interval_ms > 0;
  const bool input = type == MCP_DIGITAL_INPUT || type == MCP_ADC_INPUT;
  if (sampled && (!input || sampler_count_ >= MCPU_MAX_SAMPLED_PINS)) return false;
  const uint8_t events = (sampling.threshold || sampling.edges) ? MCPU_EVENTS_PER_PIN : 0;
  if (sampled && (sample_used_ + sampling.buffer_size > MCPU_SAMPLE_POOL || event_used_ + events > MCPU_EVENT_POOL)) {
    return false;
  }
  PinSlot& p = pins_[pin_count_++];
  p.number = pin;
  p.type = type;
  p.name = name;
  p.description = description;
  p.output = 0;
  p.sampler = 0xFF;
  if (type == MCP_DIGITAL_OUTPUT || type == MCP_PWM_OUTPUT) pinMode(pin, OUTPUT);
  if (type == MCP_DIGITAL_INPUT) pinMode(pin, INPUT);
  if (!sampled) return true;

  p.sampler = sampler_count_;
  SamplerSlot& s = samplers_[sampler_count_++];
  s = SamplerSlot();
  s.options = sampling;
  s.ring = sampling.buffer_size ? &sample_pool_[sample_used_] : nullptr;
  sample_used_ += sampling.buffer_size;
  s.events = events ? &event_pool_[event_used_] : nullptr;
  event_used_ += events;
  s.last_ms = millis() - sampling.interval_ms;  // first sample on the next loop()
  return true;
}

PinSlot* McpDevice::findPin(long number) {
  for (uint8_t i = 0; i < pin_count_; ++i) {
    if (pins_[i].number == number) return &pins_[i];
  }
  return nullptr;
}

PinSlot* McpDevice::findPin(const JsonValue& ref) {
  long number;
  if (ref.toLong(&number)) return findPin(number);
  if (ref.type != JsonType::String) return nullptr;
  for (uint8_t i = 0; i < pin_count_; ++i) {
    if (ref.stringEquals(pins_[i].name)) return &pins_[i];
  }
  return nullptr;
}

bool McpDevice::anySampling(uint8_t what) const {
  for (uint8_t i = 0; i < sampler_count_; ++i) {
    const McpSampling& o = samplers_[i].options;
    if (what == mcpu::kGetPinSummary && o.summary) return true;
    if (what == mcpu::kGetPinBuffer && o.buffer_size) return true;
    if (what == mcpu::kGetPinEvents && (o.threshold || o.edges)) return true;
  }
  return false;
}

void McpDevice::sampleDue() {
  const uint32_t now = millis();
  for (uint8_t i = 0; i < pin_count_; ++i) {
    PinSlot& p = pins_[i];
    if (p.sampler == 0xFF) continue;
    SamplerSlot& s = samplers_[p.sampler];
    if (now - s.last_ms < s.options.interval_ms) continue;
    // Keep the cadence, but never try to catch up more than one missed interval.
    s.last_ms = (now - s.last_ms < 2u * s.options.interval_ms) ? s.last_ms + s.options.interval_ms : now;
    takeSample(p, s);
  }
}

void McpDevice::sampleNow(uint8_t pin) {
  PinSlot* p = findPin(static_cast<long>(pin));
  if (p && p->sampler != 0xFF) takeSample(*p, samplers_[p->sampler]);
}

void McpDevice::takeSample(PinSlot& pin, SamplerSlot& s) {
  const int16_t v = static_cast<int16_t>(pin.type == MCP_ADC_INPUT ? analogRead(pin.number)
                                                                   : (digitalRead(pin.number) == HIGH ? 1 : 0));
  if (s.options.edges && s.count > 0 && v != s.latest) {
    pushEvent(s, v > s.latest ? mcpu::kRising : mcpu::kFalling, v, 0);
  }
  if (s.ring) {
    s.ring[s.ring_seq % s.options.buffer_size] = v;
    ++s.ring_seq;
  }
  if (s.count == 0 || v < s.min) s.min = v;
  if (s.count == 0 || v > s.max) s.max = v;
  s.latest = v;
  ++s.count;
  s.sum += v;
  if (!s.options.threshold) return;
  const McpSampling& o = s.options;
  if (s.zone == 1 && static_cast<long>(v) <= static_cast<long>(o.high) - o.hysteresis) {
    s.zone = 0;
    pushEvent(s, mcpu::kInRange, v, o.high);
  } else if (s.zone == 2 && static_cast<long>(v) >= static_cast<long>(o.low) + o.hysteresis) {
    s.zone = 0;
    pushEvent(s, mcpu::kInRange, v, o.low);
  }
  if (s.zone == 0 && v > o.high) {
    s.zone = 1;
    pushEvent(s, mcpu::kThresholdHigh, v, o.high);
  } else if (s.zone == 0 && v < o.low) {
    s.zone = 2;
    pushEvent(s, mcpu::kThresholdLow, v, o.low);
  }
}

void McpDevice::pushEvent(SamplerSlot& s, uint8_t type, int16_t value, int16_t threshold) {
  Event& e = s.events[s.event_seq % MCPU_EVENTS_PER_PIN];
  e.timestamp_ms = millis();
  e.value = value;
  e.threshold = threshold;
  e.type = type;
  ++s.event_seq;
}
