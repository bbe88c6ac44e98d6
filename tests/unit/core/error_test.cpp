// SPDX-License-Identifier: MIT
// Unit tests of the error table: protocol codes, and domain errors with unique names and codes in range.
#include "mcpud/core/error.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace mcpud {
namespace {

const std::vector<DomainError> kAllDomainErrors = {
    DomainError::PinNotFound,      DomainError::WrongPinType,        DomainError::SamplingNotEnabled,
    DomainError::ReadError,        DomainError::WriteError,          DomainError::DeviceDisconnected,
    DomainError::Timeout,          DomainError::NotAuthorized,       DomainError::UnknownSession,
    DomainError::PortAlreadyInUse, DomainError::OpenError,           DomainError::Busy,
    DomainError::TooManyClients,   DomainError::ResourceNotFound,    DomainError::InvalidArgument,
    DomainError::DeviceError,      DomainError::UplinkNotConfigured, DomainError::UplinkNotConnected,
    DomainError::ReplyTooLarge,    DomainError::RateLimited,         DomainError::OutOfRange,
    DomainError::Interlock,        DomainError::MinOffTime,          DomainError::ApprovalDenied,
    DomainError::ApprovalTimeout,  DomainError::EstopActive,
};

TEST(DomainErrors, ListInThisTestCoversTheWholeEnum) {
  // EstopActive is the last enumerator; a new one must be added above (and to error.cpp).
  EXPECT_EQ(kAllDomainErrors.size(), static_cast<std::size_t>(DomainError::EstopActive) + 1);
}

TEST(DomainErrors, CodesAreInTheServerErrorRange) {
  for (const auto kind : kAllDomainErrors) {
    const int code = domain_error_code(kind);
    // The one exception: an argument the schema accepts but the tool cannot use is
    // still invalid params to a JSON-RPC client; data.code tells it apart.
    if (kind == DomainError::InvalidArgument) {
      EXPECT_EQ(code, rpc_code::kInvalidParams);
      continue;
    }
    EXPECT_GE(code, -32099) << domain_error_name(kind);
    EXPECT_LE(code, -32000) << domain_error_name(kind);
  }
}

TEST(DomainErrors, NamesAndCodesAreUnique) {
  std::set<std::string> names;
  std::set<int> codes;
  for (const auto kind : kAllDomainErrors) {
    EXPECT_TRUE(names.insert(std::string(domain_error_name(kind))).second) << domain_error_name(kind);
    EXPECT_TRUE(codes.insert(domain_error_code(kind)).second) << domain_error_name(kind);
  }
}

TEST(DomainErrors, NamesAreUpperSnakeCase) {
  for (const auto kind : kAllDomainErrors) {
    const auto name = domain_error_name(kind);
    ASSERT_FALSE(name.empty());
    for (const char c : name) EXPECT_TRUE((c >= 'A' && c <= 'Z') || c == '_') << name;
  }
}

struct Published {
  DomainError kind;
  const char* name;
  int code;
};

TEST(DomainErrors, PublishedCodesNeverChangeAsTable) {
  // The codes documented in docs/protocol.md are part of the protocol.
  const std::vector<Published> published = {
      {DomainError::PinNotFound, "PIN_NOT_FOUND", -32001},
      {DomainError::WrongPinType, "WRONG_PIN_TYPE", -32002},
      {DomainError::SamplingNotEnabled, "SAMPLING_NOT_ENABLED", -32003},
      {DomainError::ReadError, "READ_ERROR", -32010},
      {DomainError::WriteError, "WRITE_ERROR", -32011},
      {DomainError::DeviceDisconnected, "DEVICE_DISCONNECTED", -32012},
      {DomainError::TooManyClients, "TOO_MANY_CLIENTS", -32041},
  };
  for (const auto& p : published) {
    EXPECT_EQ(domain_error_name(p.kind), p.name);
    EXPECT_EQ(domain_error_code(p.kind), p.code) << p.name;
  }
}

TEST(Error, DomainCarriesCodeNameAndMessage) {
  const auto error = Error::domain(DomainError::WrongPinType, "Wrong pin type: pin 4");
  EXPECT_EQ(error.code, -32002);
  EXPECT_EQ(error.name, "WRONG_PIN_TYPE");
  EXPECT_EQ(error.message, "Wrong pin type: pin 4");
}

struct ProtocolCase {
  Error error;
  int code;
};

TEST(Error, ProtocolErrorsHaveTheirCodeAndNoNameAsTable) {
  const std::vector<ProtocolCase> cases = {
      {Error::parse_error("p"), -32700},      {Error::invalid_request("r"), -32600},
      {Error::method_not_found("m"), -32601}, {Error::invalid_params("i"), -32602},
      {Error::internal("x"), -32603},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(c.error.code, c.code) << c.error.message;
    EXPECT_TRUE(c.error.name.empty()) << c.error.message;
    EXPECT_EQ(c.error.message.size(), 1u);
  }
}

// MCP reserves -32020..-32099 and 2026-07-28 forbids -32002 and -32042: an
// MCP client gets every domain code out of -32000..-32099, each still unique.
TEST(ErrorCodes, McpNumbersEveryDomainErrorOutsideTheServerRangeAndKeepsThemApart) {
  std::set<int> codes;
  for (const auto kind : kAllDomainErrors) {
    const auto error = numbered_for(Error::domain(kind, "m"), ErrorCodes::Mcp);
    EXPECT_EQ(error.name, domain_error_name(kind));
    if (kind == DomainError::InvalidArgument) {
      EXPECT_EQ(error.code, rpc_code::kInvalidParams);
      continue;
    }
    EXPECT_EQ(error.code, domain_error_code(kind) + 1000) << error.name;
    EXPECT_TRUE(error.code > -32000 || error.code < -32099) << error.name;
    EXPECT_TRUE(codes.insert(error.code).second) << error.name;
  }
  EXPECT_EQ(numbered_for(Error::domain(DomainError::ReplyTooLarge, "m"), ErrorCodes::Mcp).code, -31042);
}

TEST(ErrorCodes, McpuKeepsTheTableAndProtocolOrChosenCodesStayInBoth) {
  for (const auto kind : kAllDomainErrors) {
    EXPECT_EQ(numbered_for(Error::domain(kind, "m"), ErrorCodes::Mcpu).code, domain_error_code(kind));
  }
  for (const auto codes : {ErrorCodes::Mcpu, ErrorCodes::Mcp}) {
    EXPECT_EQ(numbered_for(Error::method_not_found("m"), codes).code, rpc_code::kMethodNotFound);
    // MCP's own code for an unknown resource before 2026-07-28, chosen by the dialect.
    const Error chosen{-32002, "Resource not found", "RESOURCE_NOT_FOUND"};
    EXPECT_EQ(numbered_for(chosen, codes).code, -32002);
  }
}

TEST(Error, DefaultIsAnInternalError) { EXPECT_EQ(Error{}.code, rpc_code::kInternalError); }

}  // namespace
}  // namespace mcpud
