// SPDX-License-Identifier: MIT
// A client for dialect unit tests: keeps every message pushed to it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/core/json_rpc.hpp"

namespace mcpud::test_support {

class RecordingClient final : public rpc::Client {
 public:
  void push(std::string message) override { pushed.push_back(nlohmann::json::parse(message)); }
  std::vector<nlohmann::json> pushed;
};

}  // namespace mcpud::test_support
