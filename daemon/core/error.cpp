// SPDX-License-Identifier: MIT
// The table that maps domain errors to their stable names and JSON-RPC codes.
#include "mcpud/core/error.hpp"

#include <array>

namespace mcpud {
namespace {

struct DomainErrorInfo {
  DomainError kind;
  std::string_view name;
  int code;
};

// Codes are part of the protocol: never renumber an existing entry.
constexpr std::array kDomainErrors{
    DomainErrorInfo{DomainError::PinNotFound, "PIN_NOT_FOUND", -32001},
    DomainErrorInfo{DomainError::WrongPinType, "WRONG_PIN_TYPE", -32002},
    DomainErrorInfo{DomainError::SamplingNotEnabled, "SAMPLING_NOT_ENABLED", -32003},
    DomainErrorInfo{DomainError::ReadError, "READ_ERROR", -32010},
    DomainErrorInfo{DomainError::WriteError, "WRITE_ERROR", -32011},
    DomainErrorInfo{DomainError::DeviceDisconnected, "DEVICE_DISCONNECTED", -32012},
    DomainErrorInfo{DomainError::Timeout, "TIMEOUT", -32013},
    DomainErrorInfo{DomainError::NotAuthorized, "NOT_AUTHORIZED", -32020},
    DomainErrorInfo{DomainError::UnknownSession, "UNKNOWN_SESSION", -32030},
    DomainErrorInfo{DomainError::PortAlreadyInUse, "PORT_ALREADY_IN_USE", -32031},
    DomainErrorInfo{DomainError::OpenError, "OPEN_ERROR", -32032},
    DomainErrorInfo{DomainError::Busy, "BUSY", -32040},
    DomainErrorInfo{DomainError::TooManyClients, "TOO_MANY_CLIENTS", -32041},
    DomainErrorInfo{DomainError::ResourceNotFound, "RESOURCE_NOT_FOUND", -32050},
    // An argument the schema accepts but the tool cannot use (e.g. 1.5 stop bits
    // with 8 data bits, bad hex): the invalid-params code, with a stable name.
    DomainErrorInfo{DomainError::InvalidArgument, "INVALID_ARGUMENT", rpc_code::kInvalidParams},
    DomainErrorInfo{DomainError::DeviceError, "DEVICE_ERROR", -32014},
    DomainErrorInfo{DomainError::UplinkNotConfigured, "UPLINK_NOT_CONFIGURED", -32060},
    DomainErrorInfo{DomainError::UplinkNotConnected, "UPLINK_NOT_CONNECTED", -32061},
    DomainErrorInfo{DomainError::ReplyTooLarge, "REPLY_TOO_LARGE", -32042},
    // Output limits (docs/safety.md), outside the range MCP reserves.
    DomainErrorInfo{DomainError::RateLimited, "RATE_LIMITED", -32004},
    DomainErrorInfo{DomainError::OutOfRange, "OUT_OF_RANGE", -32005},
    DomainErrorInfo{DomainError::Interlock, "INTERLOCK", -32006},
    DomainErrorInfo{DomainError::MinOffTime, "MIN_OFF_TIME", -32007},
    DomainErrorInfo{DomainError::ApprovalDenied, "APPROVAL_DENIED", -32070},
    DomainErrorInfo{DomainError::ApprovalTimeout, "APPROVAL_TIMEOUT", -32071},
    DomainErrorInfo{DomainError::EstopActive, "ESTOP_ACTIVE", -32072},
};

const DomainErrorInfo& info(DomainError kind) {
  for (const auto& entry : kDomainErrors) {
    if (entry.kind == kind) return entry;
  }
  return kDomainErrors.front();  // unreachable: every enumerator has an entry
}

}  // namespace

std::string_view domain_error_name(DomainError kind) { return info(kind).name; }
int domain_error_code(DomainError kind) { return info(kind).code; }

Error numbered_for(Error error, ErrorCodes codes) {
  if (codes == ErrorCodes::Mcpu || error.name.empty()) return error;
  constexpr int kMcpShift = 1000;  // -32001 -> -31001: out of what JSON-RPC leaves to servers and MCP reserves
  for (const auto& entry : kDomainErrors) {
    if (entry.name != error.name) continue;
    if (entry.code == error.code && entry.code >= -32099 && entry.code <= -32000) error.code += kMcpShift;
    break;
  }
  return error;
}

Error Error::parse_error(std::string message) { return {rpc_code::kParseError, std::move(message), {}}; }
Error Error::invalid_request(std::string message) { return {rpc_code::kInvalidRequest, std::move(message), {}}; }
Error Error::method_not_found(std::string message) { return {rpc_code::kMethodNotFound, std::move(message), {}}; }
Error Error::invalid_params(std::string message) { return {rpc_code::kInvalidParams, std::move(message), {}}; }
Error Error::internal(std::string message) { return {rpc_code::kInternalError, std::move(message), {}}; }
Error Error::domain(DomainError kind, std::string message) {
  return {domain_error_code(kind), std::move(message), std::string(domain_error_name(kind))};
}

}  // namespace mcpud
