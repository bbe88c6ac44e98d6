// SPDX-License-Identifier: MIT
// The one error type of the daemon core: a JSON-RPC code, a message, and for
// domain errors a stable name that clients find in error.data.code.
// Plain data and functions without state; any thread.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace mcpud {

namespace rpc_code {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
}  // namespace rpc_code

// Failures a client can act on. Each has a stable name and a JSON-RPC code in
// the -32000..-32099 range; the mapping lives in one table in error.cpp.
enum class DomainError {
  PinNotFound,
  WrongPinType,
  SamplingNotEnabled,
  ReadError,
  WriteError,
  DeviceDisconnected,
  Timeout,
  NotAuthorized,
  UnknownSession,
  PortAlreadyInUse,
  OpenError,
  Busy,
  TooManyClients,
  ResourceNotFound,
  InvalidArgument,
  DeviceError,          // a bridged device answered with an error of its own
  UplinkNotConfigured,  // no [uplink.services] to carry the request
  UplinkNotConnected,   // the uplink is configured but its server is not connected
  ReplyTooLarge,        // a call ran, but its result does not fit in what its client may be sent
  RateLimited,          // an output's max_writes_per_s is used up: retry_after_ms says when
  OutOfRange,           // a value the schema accepts but the output's configured limits do not (min_duty, ...)
  Interlock,            // another output's state forbids this one leaving safe (exclusive_with, requires)
  MinOffTime,           // an output back at safe may not leave it before its min_off_ms: retry_after_ms
  ApprovalDenied,       // a human refused a call that needed approval ([safety], docs/safety.md)
  ApprovalTimeout,      // nobody decided on a call that needed approval within approval_timeout_ms
  EstopActive,          // the emergency stop is latched: no actuating call until a human resets it
};

struct Error {
  int code = rpc_code::kInternalError;
  std::string message;
  std::string name;  // empty for protocol errors, e.g. "PIN_NOT_FOUND" otherwise
  std::string uri;   // the resource an error is about, sent as error.data.uri (MCP resources)
  // When trying again may work, in ms (a bridged device being replugged), sent as
  // error.data.retry_after_ms; 0: no hint.
  std::uint32_t retry_after_ms = 0;
  // Further members of error.data, as the text of a JSON object (MCP's
  // UnsupportedProtocolVersionError: {"supported":[...],"requested":...}); "" for none.
  std::string data_members;

  static Error parse_error(std::string message);
  static Error invalid_request(std::string message);
  static Error method_not_found(std::string message);
  static Error invalid_params(std::string message);
  static Error internal(std::string message);
  static Error domain(DomainError kind, std::string message);
};

// The stable name of a domain error ("PIN_NOT_FOUND") and its JSON-RPC code.
std::string_view domain_error_name(DomainError kind);
int domain_error_code(DomainError kind);

// Whose numbering the error codes sent to a client follow. MCP/U: the table's
// (docs/protocol.md). MCP reserves -32020..-32099 for itself and forbids -32002
// and -32042 (2026-07-28), so an MCP client gets each domain code 1000 up,
// out of -32000..-32099 (PIN_NOT_FOUND -31001, REPLY_TOO_LARGE -31042).
enum class ErrorCodes : std::uint8_t { Mcpu, Mcp };

// `error` numbered for a client of `codes`: a domain error still carrying its
// table code is renumbered; JSON-RPC's own codes, and a code a dialect chose
// itself (MCP's -32002 for an unknown resource before 2026-07-28), stay.
Error numbered_for(Error error, ErrorCodes codes);

template <class T>
using Result = std::expected<T, Error>;

}  // namespace mcpud
