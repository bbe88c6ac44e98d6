// SPDX-License-Identifier: MIT
// Fields every uplink table has in some form: a server address and secrets that
// may live in a file of their own (so the conffile can stay world-readable).
#pragma once

#include <cstdint>
#include <expected>
#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcpud/io/host_port.hpp"

namespace mcpud::uplinks {

// The schema of an uplink table: an object that takes only `properties` (JSON
// text) and `shared_keys`, defaulting to {}. Shared keys are the declarations
// several uplink tables share, written once here: the secrets (token, token_file,
// username, password, password_file), the TLS keys (tls, ca_file, cert_file,
// key_file, insecure_skip_verify) and retry_max_ms.
nlohmann::json uplink_table_schema(const char* properties, std::initializer_list<std::string_view> shared_keys);

// Parses "host:port" or "[v6]:port". Errors read "<key>: expected host:port,
// e.g. <example>, got '<text>'".
std::expected<io::HostPort, std::string> parse_host_port(std::string_view text, std::string_view key,
                                                         std::string_view example);

// The secret `name` of `table` (e.g. "token"), given inline or in the file
// `<name>_file` (trailing whitespace dropped), not both; "" when neither is given.
// `table_key` ("uplink.fleet") prefixes the errors: an unreadable or empty file,
// or both given.
std::expected<std::string, std::string> read_secret(const nlohmann::json& table, const std::string& name,
                                                    std::string_view table_key);

}  // namespace mcpud::uplinks
