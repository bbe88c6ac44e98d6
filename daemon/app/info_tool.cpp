// SPDX-License-Identifier: MIT
// get_info with the reference fields first and Linux facts after them.
#include "info_tool.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

namespace mcpud::app {
namespace {

// The board model as the kernel knows it (device tree), e.g. "Raspberry Pi 4 Model B Rev 1.4".
std::string board_model() {
  std::ifstream in("/proc/device-tree/model");
  std::string model;
  std::getline(in, model, '\0');
  return model;
}

}  // namespace

void register_info_tool(ToolRegistry& registry, InfoSource source) {
  const auto started = std::chrono::steady_clock::now();
  Tool tool;
  tool.name = "get_info";
  tool.title = "Describe the device";
  tool.annotations = kReads;
  tool.description = "Device metadata: name, version, platform, pin count, board, host and kernel";
  tool.input_schema = {
      {"type", "object"}, {"properties", nlohmann::json::object()}, {"required", nlohmann::json::array()}};
  const nlohmann::json text = {{"type", "string"}};
  const nlohmann::json count = {{"type", "integer"}};
  tool.output_schema = {{"type", "object"},
                        {"properties",
                         {{"device", text},
                          {"version", text},
                          {"platform", text},
                          {"pin_count", count},
                          {"memory_profile", text},
                          {"board", text},
                          {"model", text},
                          {"hostname", text},
                          {"kernel", text},
                          {"arch", text},
                          {"uptime_s", count}}},
                        {"required", {"device", "version", "platform", "pin_count"}}};
  tool.owner = kDaemonToolsOwner;
  tool.invoke = [source = std::move(source), started](nlohmann::json, ToolReply reply) {
    struct utsname uts {};
    uname(&uts);
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    const auto uptime = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started);
    reply(nlohmann::json{{"device", source.device()},
                         {"version", source.version},
                         {"platform", "linux"},
                         {"pin_count", source.pin_count()},
                         {"memory_profile", "rich"},
                         {"board", source.board()},
                         {"model", board_model()},
                         {"hostname", host},
                         {"kernel", std::string(uts.sysname) + " " + uts.release},
                         {"arch", uts.machine},
                         {"uptime_s", uptime.count()}});
  };
  if (auto added = registry.add(std::move(tool)); !added) throw std::logic_error(added.error().message);
}

}  // namespace mcpud::app
