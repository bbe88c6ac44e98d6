// SPDX-License-Identifier: MIT
// Builders and parsers of the voice-assistant transport messages.
#include "assistant_protocol.hpp"

#include <algorithm>
#include <cctype>

#include "mcpud/core/json_rpc.hpp"

namespace mcpud::uplinks {
namespace {

using nlohmann::json;

bool names_a_secret(std::string key) {
  std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
  return key.find("token") != std::string::npos || key.find("secret") != std::string::npos ||
         key.find("password") != std::string::npos;
}

}  // namespace

std::string device_hello(int version, std::string_view transport, const json& audio_params) {
  json hello = json::object();
  hello["type"] = "hello";
  hello["version"] = version;
  hello["features"] = {{"mcp", true}};
  hello["transport"] = transport;
  hello["audio_params"] = audio_params;
  return rpc::dump(hello);
}

Incoming classify(std::string_view text) {
  Incoming in;
  in.message = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (in.message.is_discarded() || !in.message.is_object()) {
    in.message = json();
    in.problem = "not a JSON object";
    return in;
  }
  const auto type = in.message.find("type");
  if (type == in.message.end() || !type->is_string()) {
    in.problem = "no \"type\" string";
    return in;
  }
  const auto& name = type->get_ref<const std::string&>();
  if (name == "hello") {
    in.kind = IncomingKind::Hello;
  } else if (name == "goodbye") {
    in.kind = IncomingKind::Goodbye;
  } else if (name != "mcp") {
    in.kind = IncomingKind::Other;  // tts, stt, llm, listen, ...: the audio side, not mcpud's business
  } else if (const auto payload = in.message.find("payload");
             payload == in.message.end() || !(payload->is_object() || payload->is_array())) {
    in.problem = "mcp message without an object payload";
  } else {
    in.kind = IncomingKind::Mcp;
  }
  return in;
}

std::expected<std::string, std::string> accept_server_hello(const json& hello, std::string_view transport) {
  const auto kind = hello.find("transport");
  if (kind == hello.end() || !kind->is_string() || kind->get_ref<const std::string&>() != transport) {
    return std::unexpected("server hello: transport must be \"" + std::string(transport) + "\", got " +
                           (kind == hello.end() ? std::string("none") : rpc::dump(*kind)));
  }
  const auto session = hello.find("session_id");
  if (session == hello.end() || !session->is_string() || session->get_ref<const std::string&>().empty()) {
    return std::unexpected("server hello: session_id must be a non-empty string");
  }
  return session->get<std::string>();
}

std::string goodbye(std::string_view session_id) {
  return rpc::dump(json{{"session_id", session_id}, {"type", "goodbye"}});
}

bool ends_session(const json& goodbye, std::string_view session_id) {
  const auto named = goodbye.find("session_id");
  if (named == goodbye.end() || named->is_null()) return true;
  return named->is_string() && named->get_ref<const std::string&>() == session_id;
}

std::string mcp_envelope(json message, std::string_view session_id) {
  if (!message.contains("session_id")) message["session_id"] = session_id;
  return rpc::dump(message);
}

json redact_secrets(const json& value) {
  if (value.is_array()) {
    json out = json::array();
    for (const auto& item : value) out.push_back(redact_secrets(item));
    return out;
  }
  if (!value.is_object()) return value;
  json out = json::object();
  for (const auto& [key, member] : value.items()) {
    out[key] = names_a_secret(key) && !member.is_object() ? json("(set)") : redact_secrets(member);
  }
  return out;
}

}  // namespace mcpud::uplinks
