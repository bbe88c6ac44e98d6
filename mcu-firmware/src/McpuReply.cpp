// SPDX-License-Identifier: MIT
// Arguments and replies of tool calls, and the option builders of the registration API.
#include "McpU.h"

using mcpu::JsonValue;
using mcpu::Text;

McpSampling McpBuffered(uint8_t size, uint16_t interval_ms) {
  McpSampling s;
  s.interval_ms = interval_ms;
  return s.withBuffer(size);
}

McpSampling McpSummaryOnly(uint16_t interval_ms) {
  McpSampling s;
  s.interval_ms = interval_ms;
  s.summary = true;
  return s;
}

McpSampling McpThreshold(int16_t min, int16_t max, uint16_t interval_ms) {
  McpSampling s;
  s.interval_ms = interval_ms;
  return s.withThreshold(min, max);
}

McpSampling McpEdges(uint16_t interval_ms) {
  McpSampling s;
  s.interval_ms = interval_ms;
  return s.withEdges();
}

McpToolOptions McpPolling(uint32_t interval_ms) {
  McpToolOptions o;
  o.polling_ms = interval_ms;
  return o;
}

bool McpArgs::has(Text name) const { return params_.member(name).present(); }

long McpArgs::getInt(Text name, long fallback) const {
  long v;
  return params_.member(name).toLong(&v) ? v : fallback;
}

double McpArgs::getNumber(Text name, double fallback) const {
  double v;
  return params_.member(name).toDouble(&v) ? v : fallback;
}

bool McpArgs::getBool(Text name, bool fallback) const {
  bool v;
  return params_.member(name).toBool(&v) ? v : fallback;
}

bool McpArgs::getString(Text name, char* out, size_t cap) const {
  if (params_.member(name).toString(out, cap)) return true;
  if (cap > 0) out[0] = '\0';
  return false;
}

void McpReply::envelope(Text member) {
  w_.beginObject();
  w_.member(F("jsonrpc"), Text(F("2.0")));
  w_.key(F("id"));
  if (id_) {
    w_.valueRaw(id_, id_len_);
  } else {
    w_.valueNull();
  }
  w_.key(member);
  w_.beginObject();
}

void McpReply::open() {
  if (state_ != 0) return;
  envelope(F("result"));
  state_ = 1;
}

mcpu::JsonWriter& McpReply::json() {
  open();
  return w_;
}

void McpReply::add(Text key, long v) { json().member(key, v); }
void McpReply::add(Text key, unsigned long v) { json().member(key, v); }
void McpReply::add(Text key, bool v) { json().member(key, v); }
void McpReply::add(Text key, Text v) { json().member(key, v); }
void McpReply::add(Text key, double v, uint8_t digits) {
  json().key(key);
  w_.value(v, digits);
}

mcpu::JsonWriter& McpReply::beginError(long code) {
  if (state_ == 0) {
    state_ = 2;
    envelope(F("error"));
    w_.member(F("code"), code);
    w_.key(F("message"));
    w_.beginString();
  }
  return w_;
}

void McpReply::endError(Text data_code) {
  if (state_ != 2) return;
  w_.endString();
  if (!data_code.empty()) {
    w_.key(F("data"));
    w_.beginObject();
    w_.member(F("code"), data_code);
    w_.endObject();
  }
  w_.endObject();
  w_.endObject();
  w_.raw('\n');
  state_ = 3;
}

void McpReply::error(long code, Text message, Text data_code) {
  if (state_ != 0) return;
  beginError(code).stringPart(message);
  endError(data_code);
}

void McpReply::finish() {
  if (state_ == 3) return;
  if (state_ == 2) {
    endError();
    return;
  }
  open();
  w_.endObject();
  w_.endObject();
  w_.raw('\n');
  state_ = 3;
}
