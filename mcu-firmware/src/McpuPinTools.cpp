// SPDX-License-Identifier: MIT
// The sampling methods: get_pin_summary, get_pin_buffer and get_pin_events with a since cursor.
#include "McpuBuiltins.h"

namespace mcpu {
namespace {

// Which entries of a numbered ring a read returns (same rules as mcpud's own buffers).
struct Slice {
  uint32_t start;  // sequence number of the first entry returned
  uint32_t count;
  uint32_t lost;  // entries after `since` that were overwritten before this read
};

Slice slice(uint32_t last_seq, uint16_t capacity, uint32_t since, uint32_t limit) {
  const uint32_t stored = last_seq < capacity ? last_seq : capacity;
  const uint32_t first = last_seq - stored + 1;
  Slice s;
  s.lost = since + 1 < first ? first - 1 - since : 0;
  s.start = since + 1 > first ? since + 1 : first;
  s.count = s.start > last_seq ? 0 : last_seq - s.start + 1;
  if (s.count > limit) s.count = limit;
  return s;
}

void cursorFields(JsonWriter& w, const Slice& s, uint32_t since, uint32_t last_seq) {
  w.member(F("count"), static_cast<unsigned long>(s.count));
  w.member(F("first_seq"), static_cast<unsigned long>(s.count ? s.start : last_seq + 1));
  w.member(F("next_since"),
           static_cast<unsigned long>(s.count ? s.start + s.count - 1 : (since < last_seq ? since : last_seq)));
  w.member(F("last_seq"), static_cast<unsigned long>(last_seq));
  w.member(F("lost"), static_cast<unsigned long>(s.lost));
}

const __FlashStringHelper* eventName(uint8_t type) {
  switch (type) {
    case kThresholdHigh:
      return F("threshold_high");
    case kThresholdLow:
      return F("threshold_low");
    case kInRange:
      return F("in_range");
    case kRising:
      return F("rising");
    default:
      return F("falling");
  }
}

const uint8_t kAnyPin = 0x0F;

void unavailable(McpReply& reply, const PinSlot& pin, Text flag, Text reason) {
  reply.add(F("pin"), pin.name);
  if (flag.equals("events_available", 16)) {
    reply.json().key(F("events"));
    reply.json().beginArray();
    reply.json().endArray();
  }
  reply.add(flag, false);
  reply.add(F("reason"), reason);
}

}  // namespace

void Builtins::pinSummary(McpDevice& d, McpArgs& args, McpReply& reply) {
  PinSlot* pin = pinArg(d, args, reply, kAnyPin);
  if (!pin) return;
  if (pin->sampler == 0xFF || !d.samplers_[pin->sampler].options.summary) {
    JsonWriter& w = reply.beginError(-32602);
    w.stringPart(F("Summary not enabled for this pin: "));
    w.stringPart(pin->name);
    reply.endError(F("SAMPLING_NOT_ENABLED"));
    return;
  }
  const SamplerSlot& s = d.samplers_[pin->sampler];
  JsonWriter& w = reply.json();
  w.member(F("pin"), static_cast<long>(pin->number));
  w.member(F("name"), pin->name);
  if (s.count == 0) {
    w.key(F("latest"));
    w.valueNull();
  } else {
    w.member(F("latest"), static_cast<long>(s.latest));
    w.member(F("min"), static_cast<long>(s.min));
    w.member(F("max"), static_cast<long>(s.max));
    w.key(F("avg"));
    // Rounded to two decimals in integer arithmetic (no float code on AVR).
    const long long count = static_cast<long long>(s.count);
    const long long hundredths = (s.sum * 100 + (s.sum < 0 ? -count / 2 : count / 2)) / count;
    w.valueFixed(hundredths, 2);
  }
  w.member(F("samples"), s.count);
}

void Builtins::pinBuffer(McpDevice& d, McpArgs& args, McpReply& reply) {
  PinSlot* pin = pinArg(d, args, reply, kAnyPin);
  if (!pin) return;
  if (pin->sampler == 0xFF || d.samplers_[pin->sampler].options.buffer_size == 0) {
    unavailable(reply, *pin, F("buffer_available"), F("no sample buffer configured for this pin"));
    return;
  }
  const SamplerSlot& s = d.samplers_[pin->sampler];
  const uint32_t since = static_cast<uint32_t>(args.getInt(F("since"), 0));
  const uint32_t limit = static_cast<uint32_t>(args.getInt(F("limit"), 0x7FFFFFFFL));
  const uint16_t size = s.options.buffer_size;
  const Slice sl = slice(s.ring_seq, size, since, limit);
  JsonWriter& w = reply.json();
  w.member(F("pin"), pin->name);
  w.key(F("values"));
  w.beginArray();
  for (uint32_t i = 0; i < sl.count; ++i) w.value(static_cast<long>(s.ring[(sl.start + i - 1) % size]));
  w.endArray();
  w.member(F("interval_ms"), static_cast<unsigned long>(s.options.interval_ms));
  cursorFields(w, sl, since, s.ring_seq);
}

void Builtins::pinEvents(McpDevice& d, McpArgs& args, McpReply& reply) {
  PinSlot* pin = pinArg(d, args, reply, kAnyPin);
  if (!pin) return;
  if (pin->sampler == 0xFF || !d.samplers_[pin->sampler].events) {
    unavailable(reply, *pin, F("events_available"), F("no thresholds or edges configured for this pin"));
    return;
  }
  const SamplerSlot& s = d.samplers_[pin->sampler];
  const uint32_t since = static_cast<uint32_t>(args.getInt(F("since"), 0));
  const uint32_t limit = static_cast<uint32_t>(args.getInt(F("limit"), 0x7FFFFFFFL));
  const Slice sl = slice(s.event_seq, MCPU_EVENTS_PER_PIN, since, limit);
  JsonWriter& w = reply.json();
  w.member(F("pin"), pin->name);
  w.key(F("events"));
  w.beginArray();
  for (uint32_t i = 0; i < sl.count; ++i) {
    const uint32_t seq = sl.start + i;
    const Event& e = s.events[(seq - 1) % MCPU_EVENTS_PER_PIN];
    w.beginObject();
    w.member(F("seq"), static_cast<unsigned long>(seq));
    w.member(F("type"), Text(eventName(e.type)));
    w.member(F("value"), static_cast<long>(e.value));
    if (e.type == kThresholdHigh || e.type == kThresholdLow || e.type == kInRange) {
      w.member(F("threshold"), static_cast<long>(e.threshold));
    }
    w.member(F("timestamp_ms"), static_cast<unsigned long>(e.timestamp_ms));
    w.endObject();
  }
  w.endArray();
  cursorFields(w, sl, since, s.event_seq);
}

}  // namespace mcpu
