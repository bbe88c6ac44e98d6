// SPDX-License-Identifier: MIT
// Classifying device lines and mapping device errors.
#include "device_reply.hpp"

namespace mcpud::bridge {
namespace {

using nlohmann::json;

std::string_view trim(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  return line;
}

json parse_object(std::string_view line) {
  json parsed = json::parse(line, nullptr, false);
  if (parsed.is_object()) return parsed;
  const auto brace = line.find('{');
  if (brace == std::string_view::npos || brace == 0) return json();
  parsed = json::parse(line.substr(brace), nullptr, false);
  return parsed.is_object() ? parsed : json();
}

}  // namespace

DeviceLine parse_device_line(std::string_view line, std::string_view device_id) {
  DeviceLine out;
  const json message = parse_object(trim(line));
  if (!message.is_object()) return out;
  out.kind = DeviceLine::Kind::Unsolicited;
  const bool has_result = message.contains("result");
  const bool has_error = message.contains("error") && message["error"].is_object();
  if (has_result == has_error) return out;
  const auto id = message.find("id");
  const bool id_zero =
      id == message.end() || id->is_null() || (id->is_number_integer() && id->get<std::int64_t>() == 0);
  if (has_error && id_zero) {
    out.kind = DeviceLine::Kind::IdZeroError;
    out.outcome = std::unexpected(device_error(message["error"], device_id));
    return out;
  }
  if (id == message.end() || !id->is_number_integer()) return out;
  out.kind = DeviceLine::Kind::Reply;
  out.id = id->get<std::int64_t>();
  if (has_result) {
    out.outcome = message["result"];
  } else {
    out.outcome = std::unexpected(device_error(message["error"], device_id));
  }
  return out;
}

Error device_error(const json& error, std::string_view device_id) {
  const std::string message = error.contains("message") && error["message"].is_string()
                                  ? error["message"].get<std::string>()
                                  : std::string("error without a message");
  const int code = error.contains("code") && error["code"].is_number_integer() ? error["code"].get<int>() : 0;
  const std::string text = std::string(device_id) + ": " + message + " (device code " + std::to_string(code) + ")";
  const auto starts = [&](std::string_view prefix) { return message.rfind(prefix, 0) == 0; };
  if (starts("Pin not found")) return Error::domain(DomainError::PinNotFound, text);
  if (starts("Wrong pin type")) return Error::domain(DomainError::WrongPinType, text);
  if (starts("Summary not enabled")) return Error::domain(DomainError::SamplingNotEnabled, text);
  if (code == rpc_code::kMethodNotFound) return Error::method_not_found(text);
  return Error::domain(DomainError::DeviceError, text);
}

}  // namespace mcpud::bridge
