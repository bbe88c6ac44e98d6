// SPDX-License-Identifier: MIT
// The request side of McpDevice: line framing, request checks, dispatch and argument checks.
#include "McpU.h"
#include "McpuBuiltins.h"

using mcpu::JsonType;
using mcpu::JsonValue;
using mcpu::JsonWriter;
using mcpu::Text;

namespace {

// Swallows the replies to notifications (requests without an id).
class NullPrint : public Print {
 public:
  size_t write(uint8_t) override { return 1; }
  size_t write(const uint8_t*, size_t n) override { return n; }
};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

void writeLong(JsonWriter& w, long v) {
  char buf[12];
  uint8_t n = 0;
  unsigned long u = v < 0 ? 0UL - static_cast<unsigned long>(v) : static_cast<unsigned long>(v);
  do {
    buf[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (v < 0) w.stringPart("-", 1);
  while (n > 0) w.stringPart(&buf[--n], 1);
}

}  // namespace

McpDevice::McpDevice(Text device_name, Text version)
    : device_(device_name),
      version_(version),
      stream_(nullptr),
      sample_used_(0),
      event_used_(0),
      pin_count_(0),
      sampler_count_(0),
      tool_count_(0),
      schemas_(!MCPU_NO_SCHEMAS),
      crlf_(false),
      overflow_(false),
      line_len_(0) {}

void McpDevice::begin(Stream& stream) { stream_ = &stream; }

void McpDevice::loop() {
  if (stream_) {
    // Bounded per call so that a flood of input cannot starve sampling.
    for (uint16_t i = 0; i < MCPU_LINE_MAX && stream_->available() > 0; ++i) {
      const int c = stream_->read();
      if (c < 0) break;
      feed(static_cast<char>(c));
    }
  }
  sampleDue();
}

void McpDevice::feed(char c) {
  if (c != '\n') {
    if (c == '\r' && line_len_ == MCPU_LINE_MAX) return;  // a full line may still end in CR LF
    if (line_len_ < MCPU_LINE_MAX) {
      line_[line_len_++] = c;
    } else {
      overflow_ = true;  // the rest of this line is dropped; the line is refused at its end
    }
    return;
  }
  if (overflow_) {
    overflow_ = false;
    line_len_ = 0;
    if (!stream_) return;
    JsonWriter w(*stream_, crlf_);
    McpReply reply(w, nullptr, 0);
    reply.beginError(-32600).stringPart(F("Invalid request: line longer than "));
    writeLong(w, MCPU_LINE_MAX);
    w.stringPart(F(" bytes"));
    reply.endError(F("LINE_TOO_LONG"));
    return;
  }
  const uint16_t n = line_len_;
  line_len_ = 0;
  handleLine(line_, n);
}

void McpDevice::handleLine(const char* line, size_t n) {
  while (n > 0 && isSpace(line[n - 1])) --n;
  size_t start = 0;
  while (start < n && isSpace(line[start])) ++start;
  if (start == n || !stream_) return;  // blank lines are keep-alives, not errors

  JsonWriter out(*stream_, crlf_);
  JsonValue request;
  mcpu::JsonError error;
  if (!mcpu::jsonParse(line + start, n - start, &request, &error)) {
    McpReply reply(out, nullptr, 0);
    reply.beginError(-32700).stringPart(F("Parse error: "));
    out.stringPart(Text(error.message));
    out.stringPart(F(" at byte "));
    writeLong(out, static_cast<long>(error.offset));
    reply.endError();
    return;
  }
  if (request.type != JsonType::Object) {
    McpReply reply(out, nullptr, 0);
    reply.error(-32600, F("Invalid request: expected a JSON object (batches are not supported)"));
    return;
  }
  const JsonValue id = request.member(F("id"));
  long ignored;
  const bool id_ok =
      !id.present() || id.type == JsonType::Null || (id.type == JsonType::String && id.n <= 66) || id.toLong(&ignored);
  if (!id_ok) {
    McpReply reply(out, nullptr, 0);
    reply.error(-32600, F("Invalid request: id must be an integer or a string of at most 64 bytes"));
    return;
  }
  const char* id_text = id.type == JsonType::Null ? nullptr : id.p;
  if (!id.present()) {
    NullPrint sink;  // a notification: run it, answer nothing
    JsonWriter silent(sink);
    dispatch(silent, request, nullptr, 0);
    return;
  }
  dispatch(out, request, id_text, id.n);
}

void McpDevice::dispatch(JsonWriter& w, const JsonValue& request, const char* id, size_t id_len) {
  McpReply reply(w, id, id_len);
  if (!request.member(F("jsonrpc")).stringEquals(F("2.0"))) {
    reply.error(-32600, F("Invalid request: jsonrpc must be \"2.0\""));
    return;
  }
  const JsonValue method = request.member(F("method"));
  if (!method.present()) {
    reply.error(-32600, F("Missing method"));
    return;
  }
  if (method.type != JsonType::String) {
    reply.error(-32600, F("Invalid request: method must be a string"));
    return;
  }
  JsonValue params = request.member(F("params"));
  if (params.present() && params.type != JsonType::Object) {
    reply.error(-32602, F("Bad params: params must be an object"));
    return;
  }
  const uint8_t builtin = mcpu::findBuiltin(method);
  const mcpu::ToolSlot* tool = nullptr;
  if (builtin == mcpu::kNotBuiltin) {
    for (uint8_t i = 0; i < tool_count_ && !tool; ++i) {
      if (method.stringEquals(tools_[i].name)) tool = &tools_[i];
    }
    if (!tool) {
      reply.beginError(-32601).stringPart(F("Method not found: "));
      w.stringPart(method.p + 1, method.n - 2);
      reply.endError();
      return;
    }
  }
  if (!checkParams(reply, params, builtin, tool)) return;
  McpArgs args(params);
  if (tool) {
    tool->handler(args, reply);
  } else if (builtin == mcpu::kListTools) {
    listTools(reply);
  } else if (builtin == mcpu::kGetInfo) {
    getInfo(reply);
  } else {
    mcpu::Builtins::call(*this, builtin, args, reply);
  }
  reply.finish();
}

namespace {

bool typeMatches(const McpParam& p, const JsonValue& v) {
  long n;
  switch (p.type) {
    case MCP_INTEGER:
      return v.toLong(&n);
    case MCP_NUMBER:
      return v.type == JsonType::Number;
    case MCP_BOOLEAN:
      return v.type == JsonType::Bool;
    case MCP_STRING:
      return v.type == JsonType::String;
    case MCP_PIN_REF:
      return v.type == JsonType::String || v.toLong(&n);
  }
  return false;
}

}  // namespace

const __FlashStringHelper* mcpu::paramTypeName(McpParamType t) {
  switch (t) {
    case MCP_INTEGER:
      return F("integer");
    case MCP_NUMBER:
      return F("number");
    case MCP_BOOLEAN:
      return F("boolean");
    case MCP_STRING:
      return F("string");
    default:
      return F("integer or string");
  }
}

bool McpDevice::checkParams(McpReply& reply, const JsonValue& params, uint8_t builtin, const mcpu::ToolSlot* tool) {
  const uint8_t count = mcpu::toolParamCount(builtin, tool);
  for (uint8_t i = 0; i < count; ++i) {
    const McpParam p = mcpu::toolParam(builtin, tool, i);
    const JsonValue v = params.member(p.name);
    if (!v.present()) {
      if (!p.required) continue;
      JsonWriter& w = reply.beginError(-32602);
      w.stringPart(F("Bad params: params."));
      w.stringPart(p.name);
      w.stringPart(F(": required"));
      reply.endError();
      return false;
    }
    if (!typeMatches(p, v)) {
      JsonWriter& w = reply.beginError(-32602);
      w.stringPart(F("Bad params: params."));
      w.stringPart(p.name);
      w.stringPart(F(": expected "));
      w.stringPart(mcpu::paramTypeName(p.type));
      w.stringPart(F(", got "));
      w.stringPart(mcpu::jsonTypeName(v));
      reply.endError();
      return false;
    }
    long n;
    if (p.type == MCP_INTEGER && p.ranged && v.toLong(&n) && (n < p.minimum || n > p.maximum)) {
      JsonWriter& w = reply.beginError(-32602);
      w.stringPart(F("Bad params: params."));
      w.stringPart(p.name);
      w.stringPart(F(": must be between "));
      writeLong(w, p.minimum);
      w.stringPart(F(" and "));
      writeLong(w, p.maximum);
      w.stringPart(F(", got "));
      writeLong(w, n);
      reply.endError();
      return false;
    }
  }
  return true;
}

bool McpDevice::addTool(Text name, Text description, McpHandler handler, const McpParam* params, uint8_t count,
                        McpToolOptions options) {
  if (tool_count_ >= MCPU_MAX_TOOLS || !handler || name.empty()) return false;
  for (uint8_t i = 0; i < mcpu::kBuiltinCount; ++i) {
    if (mcpu::builtinName(i).equals(name)) return false;  // built-ins cannot be replaced
  }
  for (uint8_t i = 0; i < tool_count_; ++i) {
    if (tools_[i].name.equals(name)) return false;
  }
  mcpu::ToolSlot& t = tools_[tool_count_++];
  t.name = name;
  t.description = description;
  t.handler = handler;
  t.params = params;
  t.param_count = params ? count : 0;
  t.polling_ms = options.polling_ms;
  return true;
}
