// SPDX-License-Identifier: MIT
// mcpud bridging MCP/U microcontrollers: the real mcpud binary, a scripted
// device on a real pty (through a symlink, like /dev/serial/by-id) or a real
// TCP socket, and a client on mcpud's TCP port.

#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <regex>
#include <set>

#include "support/configs.hpp"
#include "support/fixtures.hpp"
#include "support/scripted_device.hpp"

namespace mcpud::it {
namespace {

struct BridgeSpec {
  std::string id;
  std::string endpoint;  // "port = ..." or "tcp = ..."
  std::string extra;     // more keys
};

std::string bridges_toml(const std::vector<BridgeSpec>& bridges) {
  std::string text;
  for (const auto& b : bridges) {
    text += "\n[[bridges]]\nid = \"" + b.id + "\"\n" + b.endpoint + "\nreset_wait_ms = 50\nretry_max_ms = 300\n" +
            b.extra + "\n";
  }
  return text;
}

std::string serial(const std::filesystem::path& link) { return "port = \"" + link.string() + "\""; }
std::string tcp(int port) { return "tcp = \"127.0.0.1:" + std::to_string(port) + "\""; }

json find_tool(const json& listing, const std::string& name) {
  for (const auto& tool : listing["tools"]) {
    if (tool["name"] == name) return tool;
  }
  return json();
}

// The bridges of mcpu://daemon/status, as `client` reads them.
json bridges_status(LineClient& client) {
  const json read = client.result("resources/read", {{"uri", "mcpu://daemon/status"}});
  return json::parse(read["contents"][0]["text"].get<std::string>())["bridges"];
}

// Whether every tool in `tools` has a name hosts take (MCP tool name characters, at most 64) and no two share one.
::testing::AssertionResult names_hosts_take(const json& tools) {
  static const std::regex kName("^[A-Za-z0-9_.-]{1,64}$");
  std::set<std::string> seen;
  for (const auto& tool : tools) {
    const std::string name = tool["name"];
    if (!std::regex_match(name, kName)) return ::testing::AssertionFailure() << "exported: " << tool["name"].dump();
    if (!seen.insert(name).second) return ::testing::AssertionFailure() << "listed twice: " << name;
  }
  return ::testing::AssertionSuccess();
}

json mcp_initialize(LineClient& client) {
  return client.result("initialize", {{"protocolVersion", "2025-06-18"},
                                      {"capabilities", json::object()},
                                      {"clientInfo", {{"name", "host"}, {"version", "1"}}}});
}

// The messages `client` receives until one satisfies `wanted` (returned), each
// other one appended to `others`; null if none comes in time.
json next_message(LineClient& client, const std::function<bool(const json&)>& wanted, std::vector<json>* others,
                  Deadline deadline = 10s) {
  for (;;) {
    const auto line = client.read_line(deadline);
    if (!line) return nullptr;
    json message = json::parse(*line, nullptr, false);
    if (wanted(message)) return message;
    if (others) others->push_back(std::move(message));
  }
}

// A request from a host that is also told things: its reply, whatever was pushed before it going to `others`.
json host_call(LineClient& host, const std::string& method, const json& params, int id, std::vector<json>* others) {
  if (!host.send_line(request_text(method, params, id))) return nullptr;
  return next_message(
      host, [id](const json& m) { return m.value("id", json()) == id; }, others);
}

bool is_tools_list_changed(const json& message) {
  return message.value("method", "") == "notifications/tools/list_changed";
}

json find_pin(const json& listing, const std::string& name) {
  for (const auto& pin : listing["pins"]) {
    if (pin["name"] == name) return pin;
  }
  return json();
}

class Bridge : public ::testing::Test {
 protected:
  // Writes the config, starts mcpud and connects a client.
  void start(const std::vector<BridgeSpec>& bridges) {
    SimConfig config;
    config.extra_pins = bridges_toml(bridges);
    config_path_ = daemon_.write_file("mcpud.toml", sim_config_toml(config));
    port_ = daemon_.start_tcp({"--config", config_path_, "--log-level", "debug"});
    ASSERT_NE(port_, 0);
    client_ = LineClient::connect_tcp(port_);
    ASSERT_TRUE(client_);
  }

  json listing() { return client_->result("list_tools", json::object(), 10s); }
  bool has_tool(const std::string& name) { return !find_tool(listing(), name).is_null(); }
  bool wait_tool(const std::string& name, bool present, Deadline deadline = 20s) {
    return eventually([&] { return has_tool(name) == present; }, deadline, 50ms);
  }

  std::filesystem::path link(const std::string& name) { return daemon_.temp_dir().path() / name; }

  DaemonProcess daemon_;
  std::string config_path_;
  int port_ = 0;
  std::optional<LineClient> client_;
};

TEST_F(Bridge, SerialDeviceToolsAppearPrefixedAndCallsReachTheDevice) {
  auto device = ScriptedDevice::on_pty({.device = "uno-board"}, link("ttyUNO"));
  ASSERT_TRUE(device);
  start({{"uno", serial(link("ttyUNO"))}});
  ASSERT_TRUE(wait_tool("uno__gpio_write", true)) << "the device's tools never appeared";

  const json all = listing();
  const json tool = find_tool(all, "uno__gpio_write");
  EXPECT_EQ(tool["description"], "[uno] Write HIGH or LOW to a digital output pin");
  EXPECT_EQ(tool["inputSchema"]["required"], json({"pin", "value"}));
  EXPECT_FALSE(find_tool(all, "uno__read_touch").is_null());
  EXPECT_FALSE(find_tool(all, "uno__get_info").is_null()) << "the device's own get_info is offered under its prefix";
  EXPECT_TRUE(find_tool(all, "uno__list_tools").is_null()) << "discovery is mcpud's job";
  EXPECT_FALSE(find_tool(all, "gpio_write").is_null()) << "the board's own tools stay";

  const json led = find_pin(all, "uno__led");
  EXPECT_EQ(led["device"], "uno");
  EXPECT_EQ(led["pin"], 13);
  EXPECT_EQ(led["type"], "digital_output");
  EXPECT_FALSE(find_pin(all, "led").is_null()) << "local pins are still listed";

  const json written = client_->result("uno__gpio_write", {{"pin", 13}, {"value", true}});
  EXPECT_EQ(written, json({{"pin", 13}, {"name", "led"}, {"value", true}}));
  EXPECT_TRUE(device->led());
  EXPECT_EQ(client_->result("uno__gpio_read", {{"pin", 13}})["value"], true);
  EXPECT_EQ(client_->result("uno__get_info")["device"], "uno-board");

  // Boot noise (three lines and an unterminated tail glued to the first reply) did no harm.
  EXPECT_TRUE(daemon_.wait_for_log("ignoring non-JSON line")) << "boot noise was not seen as such";
  for (const auto& request : device->requests()) {
    ASSERT_TRUE(request.is_object()) << "mcpud sent a line that is not JSON: " << request.dump();
    EXPECT_TRUE(request["id"].is_number_integer()) << request.dump();
  }
}

TEST_F(Bridge, DeviceErrorsArePassedOnWithTheirMessageAndADomainCode) {
  auto device = ScriptedDevice::on_pty({}, link("ttyUNO"));
  ASSERT_TRUE(device);
  start({{"uno", serial(link("ttyUNO"))}});
  ASSERT_TRUE(wait_tool("uno__gpio_write", true));

  const json wrong_type = client_->call("uno__gpio_write", {{"pin", 34}, {"value", true}});
  EXPECT_TRUE(is_error(wrong_type, -32002, "WRONG_PIN_TYPE"));
  EXPECT_TRUE(contains(wrong_type.dump(), "uno: Wrong pin type"));
  const json missing = client_->call("uno__gpio_read", {{"pin", 7}});
  EXPECT_TRUE(is_error(missing, -32001, "PIN_NOT_FOUND"));
  const json no_history = client_->call("get_pin_summary", {{"pin", "uno__led"}});
  EXPECT_TRUE(is_error(no_history, -32003, "SAMPLING_NOT_ENABLED")) << "remote pins are known to the local pin tools";
}

TEST_F(Bridge, ABridgedPinsResourceReadsWithoutTouchingHardwareMcpudDoesNotHave) {
  auto device = ScriptedDevice::on_pty({}, link("ttyUNO"));
  ASSERT_TRUE(device);
  start({{"uno", serial(link("ttyUNO"))}});
  ASSERT_TRUE(wait_tool("uno__gpio_write", true));

  const json read = client_->result("resources/read", {{"uri", "mcpu://pins/uno__led"}});
  const json value = json::parse(read["contents"][0]["text"].get<std::string>());
  EXPECT_EQ(value["name"], "uno__led");
  EXPECT_EQ(value["device"], "uno");
  EXPECT_FALSE(value.contains("value")) << "no history: nothing to report, and no hardware of mcpud's to read";
  EXPECT_TRUE(client_->result("get_info").contains("device")) << "the daemon is still up";
}

TEST_F(Bridge, AvrDeviceWithoutSchemasGetsFallbackSchemas) {
  auto device = ScriptedDevice::on_pty({.avr = true}, link("ttyACM0"));
  ASSERT_TRUE(device);
  start({{"nano", serial(link("ttyACM0"))}});
  ASSERT_TRUE(wait_tool("nano__gpio_write", true));

  const json all = listing();
  EXPECT_EQ(find_tool(all, "nano__gpio_write")["inputSchema"]["required"], json({"pin", "value"}));
  EXPECT_EQ(find_tool(all, "nano__pwm_write")["inputSchema"]["properties"]["duty"]["maximum"], 255);
  EXPECT_EQ(find_tool(all, "nano__adc_read")["inputSchema"]["required"], json({"pin"}));

  // The fallback schema rejects what the firmware would answer "Bad params" to, naming the field.
  const std::size_t before = device->count_requests("gpio_write");
  const json rejected = client_->call("nano__gpio_write", {{"pin", 13}, {"value", 1}});
  EXPECT_TRUE(is_error(rejected, -32602));
  EXPECT_TRUE(contains(rejected.dump(), "params.value"));
  EXPECT_EQ(device->count_requests("gpio_write"), before) << "an invalid call must not reach the device";

  EXPECT_EQ(client_->result("nano__adc_read", {{"pin", 0}})["mv"], 2502);
  EXPECT_TRUE(find_pin(all, "nano__sensor")["capabilities"].is_null()) << "AVR pins have no sampling";
}

// Every `type` in `schema` is a single string: reference-style MCP/U hosts and
// several LLM function-calling APIs skip or refuse a property whose type is a list.
void expect_single_types(const json& schema, const std::string& where) {
  if (!schema.is_object()) return;
  if (const auto type = schema.find("type"); type != schema.end()) {
    EXPECT_TRUE(type->is_string()) << where << ".type is " << type->dump();
  }
  for (const char* key : {"properties", "patternProperties", "$defs", "definitions"}) {
    if (const auto map = schema.find(key); map != schema.end() && map->is_object())
      for (const auto& [name, sub] : map->items()) expect_single_types(sub, where + "." + name);
  }
  for (const char* key : {"items", "additionalProperties", "not", "contains"}) {
    if (const auto sub = schema.find(key); sub != schema.end()) expect_single_types(*sub, where + "." + key);
  }
  for (const char* key : {"anyOf", "oneOf", "allOf", "prefixItems"}) {
    if (const auto list = schema.find(key); list != schema.end() && list->is_array())
      for (std::size_t i = 0; i < list->size(); ++i)
        expect_single_types((*list)[i], where + "." + key + "[" + std::to_string(i) + "]");
  }
}

TEST_F(Bridge, EverySchemaMcpudEmitsHasOneTypePerProperty) {
  // The daemon's own tools (pins, sampling, info, serial), an AVR device's
  // fallback schemas and a rich device's own schemas.
  auto avr = ScriptedDevice::on_pty({.avr = true}, link("ttyACM0"));
  auto rich = ScriptedDevice::on_tcp({.device = "esp32"});
  ASSERT_TRUE(avr && rich);
  start({{"nano", serial(link("ttyACM0"))}, {"esp", tcp(rich->tcp_port())}});
  ASSERT_TRUE(wait_tool("nano__gpio_write", true) && wait_tool("esp__get_pin_buffer", true));
  const json tools = listing()["tools"];
  ASSERT_GT(tools.size(), 30u) << tools.dump();
  for (const auto& tool : tools) {
    const std::string name = tool["name"];
    ASSERT_TRUE(tool.contains("inputSchema")) << name;
    expect_single_types(tool["inputSchema"], name + ".inputSchema");
    if (tool.contains("outputSchema")) expect_single_types(tool["outputSchema"], name + ".outputSchema");
  }
}

TEST_F(Bridge, TornRequestAnsweredWithIdZeroParseErrorIsSentAgainOnce) {
  auto device = ScriptedDevice::on_pty({.tear_first_request = true}, link("ttyUNO"));
  ASSERT_TRUE(device);
  start({{"uno", serial(link("ttyUNO"))}});
  ASSERT_TRUE(wait_tool("uno__gpio_write", true)) << "get_info answered with an id-0 parse error was not resent";
  EXPECT_EQ(device->count_requests("get_info"), 2u);
  EXPECT_TRUE(daemon_.wait_for_log("sending it again"));
}

TEST_F(Bridge, RequestsReadInTwoPiecesSucceedAfterTheirResend) {
  // Each piece of a split request draws its own id-0 error; the second one must
  // not fail the request sent again, whose good reply follows. AVR-style, as such
  // firmware is: no sampled pins, so one request is in flight at a time.
  auto device =
      ScriptedDevice::on_pty({.avr = true, .polling_ms = 3600000, .split_every_request = true}, link("ttyUNO"));
  ASSERT_TRUE(device);
  start({{"uno", serial(link("ttyUNO"))}});
  ASSERT_TRUE(wait_tool("uno__gpio_write", true)) << "discovery failed against split lines";
  EXPECT_EQ(device->opens(), 1) << "discovery must succeed on the first connection";
  int failures = 0;
  for (int i = 0; i < 1000; ++i) {
    const json reply = client_->call("uno__gpio_write", {{"pin", 13}, {"value", i % 2 == 0}});
    if (!reply.contains("result")) {
      if (++failures <= 3) ADD_FAILURE() << "call " << i << ": " << reply.dump();
    }
  }
  EXPECT_EQ(failures, 0) << "of 1000 sequential calls";
  EXPECT_EQ(device->count_requests("gpio_write"), 2000u) << "each call sent exactly twice";
}

TEST_F(Bridge, HostilePatternsFromADeviceNeitherCrashNorFreezeTheDaemon) {
  const auto tool_with_pattern = [](const std::string& name, const std::string& pattern) {
    return json{
        {"name", name},
        {"inputSchema", {{"type", "object"}, {"properties", {{"s", {{"type", "string"}, {"pattern", pattern}}}}}}}};
  };
  const std::string nested = std::string(100000, '(') + "a" + std::string(100000, ')');  // 200 KB
  auto device = ScriptedDevice::on_tcp(
      {.extra_tools = json::array({tool_with_pattern("nested", nested), tool_with_pattern("backtrack", "^(a+)+$")})});
  ASSERT_TRUE(device);
  start({{"evil", tcp(device->tcp_port())}});
  ASSERT_TRUE(wait_tool("evil__backtrack", true)) << daemon_.log();

  // Answered within the match limit, not after seconds of backtracking.
  const json slow = client_->call("evil__backtrack", {{"s", std::string(29, 'a') + "b"}});
  EXPECT_TRUE(contains(slow.dump(), "within mcpud's matching limits")) << slow.dump();
  EXPECT_TRUE(client_->result("evil__backtrack", {{"s", std::string(29, 'a')}}).is_object());
  const json broken = client_->call("evil__nested", {{"s", "a"}});
  EXPECT_TRUE(contains(broken.dump(), "is not a valid regular expression")) << broken.dump();
  EXPECT_TRUE(daemon_.running());
  auto other = LineClient::connect_tcp(port_);
  ASSERT_TRUE(other);
  EXPECT_EQ(other->result("gpio_read", {{"pin", 2}})["pin"], 2) << "other clients are served";
}

TEST_F(Bridge, PolledToolIsCalledOnItsIntervalAndNeverOverlaps) {
  // Each read_touch answer takes longer than the polling interval.
  auto device = ScriptedDevice::on_pty({.polling_ms = 100, .read_touch_delay_ms = 250}, link("ttyUNO"));
  ASSERT_TRUE(device);
  start({{"uno", serial(link("ttyUNO"))}});
  ASSERT_TRUE(eventually([&] { return device->count_requests("read_touch") >= 4; }, 20s)) << "polling did not happen";
  for (const auto& request : device->requests()) {
    if (request.is_object() && request["method"] == "read_touch") {
      EXPECT_EQ(request["params"], json::object());
    }
  }
  EXPECT_FALSE(device->overlapping_polls()) << "a poll was sent while the previous one was unanswered";
  EXPECT_EQ(find_tool(listing(), "uno__read_touch")["polling"]["interval_ms"], 100)
      << "the device's polling hint is kept";
}

// Every sample the device took reaches mcpud's history once: values are 1, 2, 3, ...
void expect_history_is_complete(LineClient& client, const std::string& pin, ScriptedDevice& device) {
  json buffer;
  ASSERT_TRUE(eventually(
      [&] {
        buffer = client.result("get_pin_buffer", {{"pin", pin}, {"timestamps", true}});
        return buffer["values"].size() >= 25;
      },
      30s))
      << "history did not fill: " << buffer.dump();
  const auto& values = buffer["values"];
  for (std::size_t i = 1; i < values.size(); ++i) {
    ASSERT_EQ(values[i].get<double>(), values[i - 1].get<double>() + 1)
        << "lost or duplicated sample at " << i << ": " << values.dump();
  }
  EXPECT_EQ(values[0].get<double>(), 1) << "the first samples were lost: " << values.dump();
  const auto& stamps = buffer["timestamps_ms"];
  for (std::size_t i = 1; i < stamps.size(); ++i) EXPECT_GT(stamps[i], stamps[i - 1]);
  EXPECT_LE(values.back().get<std::int64_t>(), device.samples_taken());
  const json summary = client.result("get_pin_summary", {{"pin", pin}});
  EXPECT_EQ(summary["min"], 1);
  EXPECT_EQ(summary["name"], pin);
}

TEST_F(Bridge, BufferedPinIsDrainedIntoMcpudsHistoryWithoutDuplicatesByOverlap) {
  auto device = ScriptedDevice::on_pty({.sample_interval_ms = 50, .buffer_size = 20}, link("ttyUNO"));
  ASSERT_TRUE(device);
  start({{"uno", serial(link("ttyUNO"))}});
  ASSERT_TRUE(wait_tool("uno__gpio_write", true));
  const json sensor = find_pin(listing(), "uno__sensor");
  EXPECT_EQ(sensor["capabilities"]["buffer"], true);
  EXPECT_EQ(sensor["device"], "uno");
  expect_history_is_complete(*client_, "uno__sensor", *device);
}

TEST_F(Bridge, TcpDeviceWithACursorIsDrainedWithoutDuplicates) {
  auto device =
      ScriptedDevice::on_tcp({.device = "esp32", .cursor = true, .sample_interval_ms = 50, .buffer_size = 20});
  ASSERT_TRUE(device);
  start({{"esp", tcp(device->tcp_port())}});
  ASSERT_TRUE(wait_tool("esp__read_touch", true));
  EXPECT_EQ(client_->result("esp__adc_read", {{"pin", 34}})["volts"], 0.413);
  expect_history_is_complete(*client_, "esp__sensor", *device);
  for (const auto& request : device->requests()) {
    if (request.is_object() && request["method"] == "get_pin_buffer") {
      EXPECT_TRUE(request["params"].contains("since"));
    }
  }
}

TEST_F(Bridge, DeviceThatStopsAnsweringGivesTimeoutAndOthersAreUnaffected) {
  auto quiet = ScriptedDevice::on_pty({}, link("ttyQUIET"));
  auto fine = ScriptedDevice::on_tcp({});
  ASSERT_TRUE(quiet && fine);
  start({{"quiet", serial(link("ttyQUIET")), "timeout_ms = 300"}, {"esp", tcp(fine->tcp_port())}});
  ASSERT_TRUE(wait_tool("quiet__gpio_write", true));
  ASSERT_TRUE(wait_tool("esp__gpio_write", true));
  quiet->set_muted(true);
  ASSERT_TRUE(client_->send_line(request_text("quiet__gpio_write", {{"pin", 13}, {"value", true}}, 1)));
  const json other = client_->call("esp__gpio_read", {{"pin", 13}}, 2);
  EXPECT_EQ(other["id"], 2) << "the other device answered first, while the first call waits";
  const json timed_out = json::parse(client_->read_line(10s).value_or("null"));
  EXPECT_EQ(timed_out["id"], 1);
  EXPECT_TRUE(is_error(timed_out, -32013, "TIMEOUT"));
  quiet->set_muted(false);
  EXPECT_EQ(client_->result("quiet__gpio_write", {{"pin", 13}, {"value", false}})["value"], false)
      << "the link recovers";
}

TEST_F(Bridge, UnpluggedDeviceWithoutAGracePeriodLosesItsToolsFailsCallsInFlightAndComesBackWhenReplugged) {
  auto device = ScriptedDevice::on_pty({}, link("ttyUNO"));
  ASSERT_TRUE(device);
  start({{"uno", serial(link("ttyUNO")), "replug_grace_ms = 0"}});
  ASSERT_TRUE(wait_tool("uno__gpio_write", true));
  auto watcher = LineClient::connect_tcp(port_);
  ASSERT_TRUE(watcher);

  device->set_muted(true);
  ASSERT_TRUE(client_->send_line(request_text("uno__gpio_write", {{"pin", 13}, {"value", true}}, 7)));
  ASSERT_TRUE(eventually([&] { return device->count_requests("gpio_write") == 1; }, 10s));
  device->unplug();
  const json failed = json::parse(client_->read_line(10s).value_or("null"));
  EXPECT_EQ(failed["id"], 7);
  EXPECT_TRUE(is_error(failed, -32012, "DEVICE_DISCONNECTED"));
  ASSERT_TRUE(wait_tool("uno__gpio_write", false)) << "tools of an unplugged device must go";
  EXPECT_TRUE(daemon_.wait_for_log("3 non-JSON lines ignored")) << "the boot banner's lines are counted";
  EXPECT_TRUE(find_pin(listing(), "uno__led").is_null());
  EXPECT_TRUE(is_error(watcher->call("uno__gpio_write", {{"pin", 13}, {"value", true}}), -32601));
  EXPECT_EQ(watcher->result("gpio_write", {{"pin", 2}, {"value", true}})["value"], true) << "local pins keep working";

  device->set_muted(false);
  device->plug_in();
  ASSERT_TRUE(wait_tool("uno__gpio_write", true)) << "tools did not come back after replug";
  EXPECT_EQ(client_->result("uno__gpio_write", {{"pin", 13}, {"value", true}})["value"], true);
  EXPECT_TRUE(device->led());
  EXPECT_TRUE(daemon_.running());
}

TEST_F(Bridge, UnpluggedDevicesToolsAnswerDeviceDisconnectedWithARetryHintUntilItsGracePeriodEnds) {
  auto device = ScriptedDevice::on_pty({}, link("ttyUNO"));
  ASSERT_TRUE(device);
  start({{"uno", serial(link("ttyUNO")), "replug_grace_ms = 2000"}});
  ASSERT_TRUE(wait_tool("uno__gpio_write", true));
  auto host = LineClient::connect_tcp(port_);  // an MCP host holding its tool list
  ASSERT_TRUE(host);
  mcp_initialize(*host);

  // Unplugged and replugged within the grace period: the tools stay, calls say when to try again.
  device->unplug();
  ASSERT_TRUE(daemon_.wait_for_log("answer DEVICE_DISCONNECTED for up to 2000 ms"));
  const json away = client_->call("uno__gpio_write", {{"pin", 13}, {"value", true}});
  ASSERT_TRUE(is_error(away, -32012, "DEVICE_DISCONNECTED")) << away.dump();
  const json hint = away["error"]["data"]["retry_after_ms"];
  ASSERT_TRUE(hint.is_number_unsigned()) << away.dump();
  EXPECT_GT(hint.get<int>(), 50);  // the test's reset_wait_ms is 50
  EXPECT_LT(hint.get<int>(), 2000) << "retry_max_ms is 300";
  EXPECT_TRUE(has_tool("uno__gpio_write")) << "hosts keep a cached list: the tool is still there";
  std::vector<json> told;
  const json mcp_away = host_call(
      *host, "tools/call", {{"name", "uno__gpio_write"}, {"arguments", {{"pin", 13}, {"value", true}}}}, 2, &told);
  EXPECT_EQ(mcp_away["result"]["isError"], true) << mcp_away.dump();
  EXPECT_TRUE(contains(mcp_away.dump(), "DEVICE_DISCONNECTED")) << mcp_away.dump();
  EXPECT_TRUE(contains(mcp_away.dump(), "retry in")) << mcp_away.dump();
  const json status = bridges_status(*client_)[0];
  EXPECT_EQ(status["online"], false);
  EXPECT_TRUE(status.contains("tools_kept_until_ms")) << status.dump();
  device->plug_in();
  ASSERT_TRUE(eventually(
      [&] {
        return client_->call("uno__gpio_write", {{"pin", 13}, {"value", true}}).contains("result");
      },
      10s));
  EXPECT_TRUE(device->led());
  EXPECT_TRUE(next_message(*host, is_tools_list_changed, &told, 300ms).is_null())
      << "the same tools came back: nothing changed for the host";
  EXPECT_TRUE(std::none_of(told.begin(), told.end(), is_tools_list_changed)) << "the tools went and came back";

  // Not back in time: the tools go, with tools/list_changed, and calls are -32601 as for any unknown tool.
  device->unplug();
  const auto unplugged = std::chrono::steady_clock::now();
  const json changed = next_message(*host, is_tools_list_changed, &told, 10s);
  ASSERT_FALSE(changed.is_null()) << "no tools/list_changed once the grace period ended";
  EXPECT_GE(std::chrono::steady_clock::now() - unplugged, 1500ms) << "the tools went before their grace period ended";
  EXPECT_FALSE(has_tool("uno__gpio_write"));
  EXPECT_TRUE(is_error(client_->call("uno__gpio_write", {{"pin", 13}, {"value", true}}), -32601));
  EXPECT_TRUE(daemon_.wait_for_log("not back within 2000 ms"));
  EXPECT_FALSE(bridges_status(*client_)[0].contains("tools_kept_until_ms"));
}

TEST_F(Bridge, ToolNamesHostsCannotTakeAreRefusedAndReportedAndNeverMerged) {
  using namespace std::string_literals;
  const std::vector<std::string> hostile = {
      "a\nb",      "a\0b"s,      "evil\u202Etxt", "say\"hi",           "<script>alert(1)</script>",
      "../../etc", "tools/list", "__proto__",     std::string(60, 'n')};
  json extra = json::array();
  for (const auto& name : hostile) extra.push_back({{"name", name}, {"description", "hostile"}});
  extra.push_back({{"name", "read_touch"}, {"description", "the second read_touch"}});
  extra.push_back({{"name", "shown"}, {"description", "line one\nline two\x1b[2J\u202E\u0085end"}});
  auto device = ScriptedDevice::on_tcp({.extra_tools = extra});
  ASSERT_TRUE(device);
  start({{"evil", tcp(device->tcp_port())}});
  ASSERT_TRUE(wait_tool("evil__shown", true)) << daemon_.log();

  const json all = listing();
  EXPECT_TRUE(names_hosts_take(all["tools"]));
  auto host = LineClient::connect_tcp(port_);
  ASSERT_TRUE(host);
  mcp_initialize(*host);
  const json mcp_listing = host_call(*host, "tools/list", json::object(), 2, nullptr);
  EXPECT_TRUE(names_hosts_take(mcp_listing["result"]["tools"])) << "MCP lists the same";
  const json touch = find_tool(all, "evil__read_touch");
  EXPECT_EQ(touch["description"], "[evil] Read capacitive touch sensor") << "the first of two alike is kept";
  EXPECT_EQ(find_tool(all, "evil__shown")["description"], "[evil] line one line two [2J  end")
      << "no control or formatting characters in what people read";
  EXPECT_FALSE(find_tool(all, "evil__gpio_write").is_null()) << "the device's good tools are exported";

  // Each refusal is logged once, naming the device, the name escaped, and why.
  EXPECT_TRUE(daemon_.wait_for_log("bridge] evil: refused the device's tool 'a\\x0ab': '\\x0a' is not one of"));
  EXPECT_TRUE(daemon_.wait_for_log("refused the device's tool 'a\\x00b'"));
  EXPECT_TRUE(daemon_.wait_for_log("refused the device's tool 'evil\\u202etxt'"));
  EXPECT_TRUE(daemon_.wait_for_log("refused the device's tool '__proto__': \"__\" separates"));
  EXPECT_TRUE(daemon_.wait_for_log("refused the device's tool 'read_touch': listed twice"));
  EXPECT_TRUE(daemon_.wait_for_log("'evil__' and the name make 66 characters; hosts take at most 64"));
  const std::string log = daemon_.log();
  EXPECT_FALSE(contains(log, "\u202E")) << "a formatting character reached the log";
  EXPECT_FALSE(contains(log, "\x1b")) << "an escape sequence reached the log";

  // The bridge's status (mcpuctl bridges, the dashboard) counts and lists them.
  const json status = bridges_status(*client_)[0];
  EXPECT_EQ(status["refused_count"], hostile.size() + 1) << status.dump();
  ASSERT_TRUE(status["refused"].is_array()) << status.dump();
  EXPECT_EQ(status["refused"][0],
            "tool 'a\\x0ab': '\\x0a' is not one of A-Z a-z 0-9 _ - . (the characters of MCP tool names)");
  EXPECT_EQ(status["refused"].back(), "tool 'read_touch': listed twice (the first is kept)");
}

TEST_F(Bridge, ManifestOverTheLineLimitIsReportedWithItsSizeAndAskedForLessOften) {
  json extra = json::array();
  for (int i = 0; i < 2100; ++i) {
    extra.push_back({{"name", "tool_" + std::to_string(i)}, {"description", std::string(100, 'd')}});
  }
  auto device = ScriptedDevice::on_tcp({.extra_tools = extra});
  ASSERT_TRUE(device);
  start({{"big", tcp(device->tcp_port()), "timeout_ms = 2000"}});
  // Told at once, with the size, not as a timeout.
  ASSERT_TRUE(daemon_.wait_for_log("big: cannot connect: list_tools: big: the device's reply is ", 10s))
      << daemon_.log();
  EXPECT_TRUE(
      daemon_.wait_for_log(" bytes long, over the line limit of 262144 bytes; asking again at most every 60 s"));
  EXPECT_FALSE(contains(daemon_.log(), "no reply within")) << daemon_.log();
  // Asked again with a growing delay, beyond the usual ceiling (retry_max_ms = 300 here).
  const auto now_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  json status;
  EXPECT_TRUE(eventually(
      [&] {
        status = bridges_status(*client_)[0];
        return status.contains("next_attempt_ms") && status["next_attempt_ms"].get<std::int64_t>() - now_ms() > 1000;
      },
      15s, 100ms))
      << status.dump();
  EXPECT_TRUE(contains(status["last_error"].get<std::string>(), "over the line limit")) << status.dump();
  EXPECT_LE(device->opens(), 6) << "asked too often";
  EXPECT_TRUE(daemon_.running());
}

TEST_F(Bridge, ReloadKeepsUnchangedBridgesConnectedAndStopsRemovedOnes) {
  auto uno = ScriptedDevice::on_pty({}, link("ttyUNO"));
  auto esp = ScriptedDevice::on_tcp({});
  ASSERT_TRUE(uno && esp);
  start({{"uno", serial(link("ttyUNO"))}, {"esp", tcp(esp->tcp_port())}});
  ASSERT_TRUE(wait_tool("uno__gpio_write", true));
  ASSERT_TRUE(wait_tool("esp__gpio_write", true));

  SimConfig config;
  config.extra_pins = bridges_toml({{"uno", serial(link("ttyUNO"))}});
  daemon_.write_file("mcpud.toml", sim_config_toml(config));
  daemon_.signal(SIGHUP);
  ASSERT_TRUE(wait_tool("esp__gpio_write", false)) << "a bridge removed from the config must go";
  EXPECT_TRUE(has_tool("uno__gpio_write"));
  EXPECT_EQ(uno->opens(), 1) << "an unchanged bridge stays connected across a reload";
  EXPECT_EQ(client_->result("uno__gpio_write", {{"pin", 13}, {"value", true}})["value"], true);
}

TEST_F(Bridge, SecondBridgeOnTheSamePortIsRefusedAsInUse) {
  auto device = ScriptedDevice::on_pty({}, link("ttyUNO"));
  ASSERT_TRUE(device);
  start({{"uno", serial(link("ttyUNO"))}, {"again", serial(link("ttyUNO"))}});
  EXPECT_TRUE(daemon_.wait_for_log("is already in use"));
  EXPECT_TRUE(eventually([&] { return has_tool("uno__gpio_write") || has_tool("again__gpio_write"); }, 20s));
  EXPECT_FALSE(has_tool("uno__gpio_write") && has_tool("again__gpio_write"));
}

}  // namespace
}  // namespace mcpud::it
