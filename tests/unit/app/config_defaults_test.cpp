// SPDX-License-Identifier: MIT
// The schema is the one place a configuration default is written: every key it
// gives a default reaches the parsed configuration, and a value-initialized
// configuration struct holds none of them (one that did would be a second copy,
// free to drift from the schema and from what --check-config prints).
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "config.hpp"

namespace mcpud::config {
namespace {

using nlohmann::json;

// Where each defaulted key lands in a parsed T, as that key's JSON value.
template <class T>
using Fields = std::map<std::string, std::function<json(const T&)>>;

// Every value of `document` that is a field's or not an object, by JSON pointer.
template <class T>
void collect_leaves(const json& document, const std::string& at, const Fields<T>& fields,
                    std::map<std::string, json>& out) {
  if (!document.is_object() || fields.contains(at)) {
    out[at] = document;
    return;
  }
  for (const auto& [key, value] : document.items()) collect_leaves(value, at + "/" + key, fields, out);
}

bool is_zero(const json& value) { return value.is_null() || value == json(value.type()); }

// `resolved` is what the schema filled in (as --check-config prints it). Each of
// its keys but those in `skipped` must be in `fields`, hold its value in
// `parsed`, and, unless zero or in `zero_is_default`, not in a value-initialized T.
template <class T>
void expect_defaults_from_the_schema_only(const json& resolved, const Fields<T>& fields, const T& parsed,
                                          const std::set<std::string>& skipped,
                                          const std::set<std::string>& zero_is_default = {}) {
  std::map<std::string, json> defaults;
  collect_leaves(resolved, "", fields, defaults);
  const T value_initialized{};
  for (const auto& [key, value] : defaults) {
    if (skipped.contains(key)) continue;
    const auto field = fields.find(key);
    if (field == fields.end()) {
      ADD_FAILURE() << key << ": a schema default this test does not know; add where it lands to its fields";
      continue;
    }
    EXPECT_EQ(field->second(parsed), value) << key << ": the parsed configuration does not hold the schema's default";
    if (is_zero(value) || zero_is_default.contains(key)) continue;
    EXPECT_NE(field->second(value_initialized), value)
        << key << ": a value-initialized struct already holds the schema's default, so the code writes it again";
  }
  for (const auto& [key, field] : fields) EXPECT_TRUE(defaults.contains(key)) << key << ": not a schema default";
}

std::string octal(unsigned mode) {
  char text[16];
  std::snprintf(text, sizeof text, "%04o", mode);
  return text;
}

const Fields<Config>& config_fields() {
  static const Fields<Config> fields{
      {"/device", [](const Config& c) -> json { return c.device; }},
      {"/listen", [](const Config& c) -> json { return c.listen; }},
      {"/listen_tls", [](const Config& c) -> json { return c.listen_tls; }},
      {"/tls_cert", [](const Config& c) -> json { return c.tls.certificate; }},
      {"/tls_key", [](const Config& c) -> json { return c.tls.key; }},
      {"/tty",
       [](const Config& c) -> json {
         json specs = json::array();
         for (const auto& tty : c.ttys) specs.push_back(tty.path + ":" + std::to_string(tty.baud));
         return specs;
       }},
      {"/log_level", [](const Config& c) -> json { return c.log_level; }},
      {"/dbus", [](const Config& c) -> json { return c.dbus; }},
      {"/discovery/announce", [](const Config& c) -> json { return c.discovery.announce; }},
      {"/discovery/name", [](const Config& c) -> json { return c.discovery.name; }},
      {"/board", [](const Config& c) -> json { return pins::board_kind_name(c.board.kind); }},
      {"/pwm_sysfs_root", [](const Config& c) -> json { return c.board.pwm_sysfs_root; }},
      {"/sysfs_root", [](const Config& c) -> json { return c.board.sysfs_root; }},
      {"/procfs_root", [](const Config& c) -> json { return c.board.procfs_root; }},
      {"/pins", [](const Config& c) -> json { return json::array_t(c.board.pins.size()); }},
      {"/bridges", [](const Config& c) -> json { return json::array_t(c.bridges.size()); }},
      {"/limits/max_line_bytes", [](const Config& c) -> json { return c.limits.max_line_bytes; }},
      {"/limits/client_queue_bytes", [](const Config& c) -> json { return c.limits.client_queue_bytes; }},
      {"/limits/max_clients", [](const Config& c) -> json { return c.limits.max_clients; }},
      {"/limits/max_clients_per_address", [](const Config& c) -> json { return c.limits.max_clients_per_address; }},
      {"/limits/idle_timeout_s", [](const Config& c) -> json { return c.limits.idle_timeout_s; }},
      {"/mcp/page_bytes", [](const Config& c) -> json { return c.mcp.mcp.page_bytes; }},
      {"/mcp/activity_details", [](const Config& c) -> json { return c.mcp.mcp.activity_details; }},
      {"/mcp/user_only_tools", [](const Config& c) -> json { return c.mcp.mcp.user_only_tools; }},
      {"/unix_socket/group", [](const Config& c) -> json { return c.mcp.unix_socket.group; }},
      {"/unix_socket/mode", [](const Config& c) -> json { return octal(c.mcp.unix_socket.mode); }},
      {"/http/listen", [](const Config& c) -> json { return c.mcp.http.listen; }},
      {"/http/token", [](const Config& c) -> json { return c.mcp.http.token; }},
      {"/http/tls_cert", [](const Config& c) -> json { return c.mcp.http.tls.certificate; }},
      {"/http/tls_key", [](const Config& c) -> json { return c.mcp.http.tls.key; }},
      {"/http/dashboard_token", [](const Config& c) -> json { return c.mcp.http.dashboard_token; }},
      {"/http/allowed_origins", [](const Config& c) -> json { return c.mcp.http.allowed_origins; }},
      {"/http/allowed_hosts", [](const Config& c) -> json { return c.mcp.http.allowed_hosts; }},
      {"/http/max_sessions", [](const Config& c) -> json { return c.mcp.http.max_sessions; }},
      {"/http/max_sessions_per_address", [](const Config& c) -> json { return c.mcp.http.max_sessions_per_address; }},
      {"/http/max_body_bytes", [](const Config& c) -> json { return c.mcp.http.max_body_bytes; }},
      {"/safety/confirm_tools", [](const Config& c) -> json { return c.safety.confirm_tools; }},
      {"/safety/max_pending_approvals", [](const Config& c) -> json { return c.safety.max_pending_approvals; }},
      {"/safety/approval_timeout_ms", [](const Config& c) -> json { return c.safety.approval_timeout_ms; }},
      {"/safety/estop_pin", [](const Config& c) -> json { return c.safety.estop_pin; }},
      {"/safety/estop_active", [](const Config& c) -> json { return c.safety.estop_active; }},
      {"/safety/approve_pin", [](const Config& c) -> json { return c.safety.approve_pin; }},
      {"/safety/audit_records", [](const Config& c) -> json { return c.safety.audit_records; }},
      {"/i2c/buses", [](const Config& c) -> json { return json::array_t(c.i2c.buses.size()); }},
      {"/i2c/max_transfer_bytes", [](const Config& c) -> json { return c.i2c.max_transfer_bytes; }},
      {"/i2c/dev_root", [](const Config& c) -> json { return c.i2c.dev_root; }},
      {"/i2c/sysfs_root", [](const Config& c) -> json { return c.i2c.sysfs_root; }},
      {"/spi/devices", [](const Config& c) -> json { return json::array_t(c.spi.devices.size()); }},
      {"/spi/dev_root", [](const Config& c) -> json { return c.spi.dev_root; }},
      {"/serial/enabled", [](const Config& c) -> json { return c.serial.enabled; }},
      {"/serial/default_baud", [](const Config& c) -> json { return c.serial.default_baud; }},
      {"/serial/default_timeout_ms", [](const Config& c) -> json { return c.serial.default_timeout_ms; }},
      {"/serial/log_level", [](const Config& c) -> json { return c.serial.log_level; }},
      {"/serial/ports", [](const Config& c) -> json { return c.serial.ports; }},
      {"/serial/buffer_bytes", [](const Config& c) -> json { return c.serial.buffer_bytes; }},
      {"/serial/buffer_bytes_total", [](const Config& c) -> json { return c.serial.buffer_bytes_total; }},
      {"/serial/max_sessions", [](const Config& c) -> json { return c.serial.max_sessions; }},
      {"/serial/share_sessions", [](const Config& c) -> json { return c.serial.share_sessions; }},
      {"/serial/stateless_idle_ms", [](const Config& c) -> json { return c.serial.stateless_idle_ms; }},
      {"/serial/newline", [](const Config& c) -> json { return c.serial.newline; }},
      {"/serial/sysfs_root", [](const Config& c) -> json { return c.serial.sysfs_root; }},
      {"/serial/dev_root", [](const Config& c) -> json { return c.serial.dev_root; }},
      {"/serial/hotplug", [](const Config& c) -> json { return c.serial.hotplug; }},
      {"/uplink/services/server", [](const Config& c) -> json { return c.uplink.services.server; }},
      {"/uplink/services/tls", [](const Config& c) -> json { return c.uplink.services.tls; }},
      {"/uplink/services/ca_file", [](const Config& c) -> json { return c.uplink.services.ca_file; }},
      {"/uplink/services/server_name", [](const Config& c) -> json { return c.uplink.services.server_name; }},
      {"/uplink/services/token", [](const Config& c) -> json { return c.uplink.services.token; }},
      {"/uplink/services/voice_id", [](const Config& c) -> json { return c.uplink.services.voice_id; }},
      {"/uplink/services/lang", [](const Config& c) -> json { return c.uplink.services.lang; }},
      {"/uplink/services/format", [](const Config& c) -> json { return c.uplink.services.format; }},
      {"/uplink/services/ping_interval_s", [](const Config& c) -> json { return c.uplink.services.ping_interval_s; }},
      {"/uplink/services/retry_max_ms", [](const Config& c) -> json { return c.uplink.services.retry_max_ms; }},
      {"/uplink/services/max_frame_bytes", [](const Config& c) -> json { return c.uplink.services.max_frame_bytes; }},
      {"/uplink/services/queue_bytes", [](const Config& c) -> json { return c.uplink.services.queue_bytes; }},
      {"/uplink/services/task_id", [](const Config& c) -> json { return c.uplink.services.task_id; }},
      {"/uplink/services/user_tools", [](const Config& c) -> json { return c.uplink.services.user_tools; }},
      {"/uplink/services/max_calls_in_flight",
       [](const Config& c) -> json { return c.uplink.services.max_calls_in_flight; }},
      {"/uplink/services/ask_timeout_s", [](const Config& c) -> json { return c.uplink.services.ask_timeout_s; }},
      {"/uplink/services/ask_quiet_ms", [](const Config& c) -> json { return c.uplink.services.ask_quiet_ms; }},
      {"/uplink/services/register_delay_ms",
       [](const Config& c) -> json { return c.uplink.services.register_delay_ms; }},
      {"/uplink/fleet/broker",
       [](const Config& c) -> json {
         const auto& fleet = c.uplink.fleet;
         return fleet.host.empty() ? "" : fleet.host + ":" + std::to_string(fleet.port);
       }},
      {"/uplink/fleet/device", [](const Config& c) -> json { return c.uplink.fleet.device; }},
      {"/uplink/fleet/topic_prefix", [](const Config& c) -> json { return c.uplink.fleet.topic_prefix; }},
      {"/uplink/fleet/mqtt_version", [](const Config& c) -> json { return c.uplink.fleet.mqtt5 ? "5" : "3.1.1"; }},
      {"/uplink/fleet/username", [](const Config& c) -> json { return c.uplink.fleet.username; }},
      {"/uplink/fleet/password", [](const Config& c) -> json { return c.uplink.fleet.password; }},
      {"/uplink/fleet/tls", [](const Config& c) -> json { return c.uplink.fleet.tls; }},
      {"/uplink/fleet/ca_file", [](const Config& c) -> json { return c.uplink.fleet.ca_file; }},
      {"/uplink/fleet/cert_file", [](const Config& c) -> json { return c.uplink.fleet.cert_file; }},
      {"/uplink/fleet/key_file", [](const Config& c) -> json { return c.uplink.fleet.key_file; }},
      {"/uplink/fleet/insecure_skip_verify",
       [](const Config& c) -> json { return c.uplink.fleet.insecure_skip_verify; }},
      {"/uplink/fleet/keepalive_s", [](const Config& c) -> json { return c.uplink.fleet.keepalive_s; }},
      {"/uplink/fleet/retry_max_ms", [](const Config& c) -> json { return c.uplink.fleet.retry_max_ms; }},
      {"/uplink/fleet/max_in_flight", [](const Config& c) -> json { return c.uplink.fleet.max_in_flight; }},
      {"/uplink/fleet/summary_interval_s", [](const Config& c) -> json { return c.uplink.fleet.summary_interval_s; }},
      {"/uplink/assistant/transport", [](const Config& c) -> json { return c.uplink.assistant.transport; }},
      {"/uplink/assistant/url", [](const Config& c) -> json { return c.uplink.assistant.url; }},
      {"/uplink/assistant/token", [](const Config& c) -> json { return c.uplink.assistant.token; }},
      {"/uplink/assistant/protocol_version",
       [](const Config& c) -> json { return c.uplink.assistant.protocol_version; }},
      {"/uplink/assistant/device_id", [](const Config& c) -> json { return c.uplink.assistant.device_id; }},
      {"/uplink/assistant/client_id", [](const Config& c) -> json { return c.uplink.assistant.client_id; }},
      {"/uplink/assistant/ca_file", [](const Config& c) -> json { return c.uplink.assistant.ca_file; }},
      {"/uplink/assistant/insecure_skip_verify",
       [](const Config& c) -> json { return c.uplink.assistant.insecure_skip_verify; }},
      {"/uplink/assistant/audio_params", [](const Config& c) -> json { return c.uplink.assistant.audio_params; }},
      {"/uplink/assistant/hello_timeout_ms",
       [](const Config& c) -> json { return c.uplink.assistant.hello_timeout_ms; }},
      {"/uplink/assistant/ping_interval_ms",
       [](const Config& c) -> json { return c.uplink.assistant.ping_interval_ms; }},
      {"/uplink/assistant/retry_max_ms", [](const Config& c) -> json { return c.uplink.assistant.retry_max_ms; }},
      {"/uplink/assistant/max_message_bytes",
       [](const Config& c) -> json { return c.uplink.assistant.max_message_bytes; }},
      {"/uplink/assistant/queue_bytes", [](const Config& c) -> json { return c.uplink.assistant.queue_bytes; }},
      {"/uplink/assistant/push_pin_events", [](const Config& c) -> json { return c.uplink.assistant.push_pin_events; }},
      {"/uplink/assistant/capabilities_file",
       [](const Config& c) -> json { return c.uplink.assistant.capabilities_file; }},
      {"/uplink/assistant/broker", [](const Config& c) -> json { return c.uplink.assistant.broker; }},
      {"/uplink/assistant/publish_topic", [](const Config& c) -> json { return c.uplink.assistant.publish_topic; }},
      {"/uplink/assistant/subscribe_topic", [](const Config& c) -> json { return c.uplink.assistant.subscribe_topic; }},
      {"/uplink/assistant/username", [](const Config& c) -> json { return c.uplink.assistant.username; }},
      {"/uplink/assistant/password", [](const Config& c) -> json { return c.uplink.assistant.password; }},
      {"/uplink/assistant/keepalive_s", [](const Config& c) -> json { return c.uplink.assistant.keepalive_s; }},
      {"/uplink/assistant/qos", [](const Config& c) -> json { return c.uplink.assistant.qos; }},
      {"/uplink/assistant/tls", [](const Config& c) -> json { return c.uplink.assistant.tls; }},
      {"/uplink/assistant/mqtt_version", [](const Config& c) -> json { return c.uplink.assistant.mqtt_version; }},
  };
  return fields;
}

// Names of files a secret is read from: read, not kept.
const std::set<std::string> kSecretFiles{"/uplink/services/token_file", "/uplink/fleet/password_file",
                                         "/uplink/assistant/token_file", "/uplink/assistant/password_file"};

TEST(ConfigDefaults, EveryDefaultOfTheSchemaIsReadAndNoStructWritesItAgain) {
  const auto config = defaults();
  // BoardKind's first value is the simulated board, the schema's default board.
  expect_defaults_from_the_schema_only(config.resolved, config_fields(), config, kSecretFiles, {"/board"});
}

TEST(ConfigDefaults, EveryDefaultOfABridgeIsReadAndNoStructWritesItAgain) {
  const auto config = parse("[[bridges]]\nid = \"uno\"\nport = \"/dev/ttyACM0\"\n", "test.toml");
  ASSERT_TRUE(config) << config.error();
  const Fields<bridge::BridgeConfig> fields{
      {"/baud", [](const bridge::BridgeConfig& b) -> json { return b.baud; }},
      {"/reset_wait_ms", [](const bridge::BridgeConfig& b) -> json { return b.reset_wait_ms; }},
      {"/timeout_ms", [](const bridge::BridgeConfig& b) -> json { return b.timeout_ms; }},
      {"/retry_max_ms", [](const bridge::BridgeConfig& b) -> json { return b.retry_max_ms; }},
      {"/replug_grace_ms", [](const bridge::BridgeConfig& b) -> json { return b.replug_grace_ms; }},
      {"/max_in_flight", [](const bridge::BridgeConfig& b) -> json { return b.max_in_flight; }},
  };
  expect_defaults_from_the_schema_only(config->resolved["bridges"][0], fields, config->bridges.at(0), {"/id", "/port"});
}

TEST(ConfigDefaults, EveryDefaultOfAPinIsReadAndNoStructWritesItAgain) {
  const auto config = parse(
      "[[pins]]\nname = \"fan\"\npin = 1\ntype = \"pwm_output\"\npwm = {}\n"
      "[[pins]]\nname = \"motor\"\npin = 2\ntype = \"pwm_output\"\n",
      "test.toml");
  ASSERT_TRUE(config) << config.error();
  const Fields<pins::PinConfig> fields{
      {"/description", [](const pins::PinConfig& p) -> json { return p.description; }},
      {"/pwm/frequency_hz", [](const pins::PinConfig& p) -> json { return p.frequency_hz; }},
  };
  const auto& fan = config->resolved["pins"][0];
  expect_defaults_from_the_schema_only(fan, fields, config->board.pins.at(0), {"/name", "/pin", "/type"});
  EXPECT_EQ(config->board.pins.at(1).frequency_hz, fan["pwm"]["frequency_hz"])
      << "a PWM pin without a [pins.pwm] table runs at the schema's frequency";
}

// The socket's path is not a schema default: the default path, unlike the same
// path given, may be missing its directory with only a warning.
TEST(ConfigDefaults, WithoutAPathTheUnixSocketIsAtTheDefaultPathNotAGivenOne) {
  const auto config = defaults();
  EXPECT_FALSE(config.resolved["unix_socket"].contains("path"));
  EXPECT_EQ(config.mcp.unix_socket.path, kDefaultUnixSocket);
  EXPECT_FALSE(config.mcp.unix_socket.path_given);
  const auto given = parse(std::string("[unix_socket]\npath = \"") + kDefaultUnixSocket + "\"\n", "test.toml");
  ASSERT_TRUE(given) << given.error();
  EXPECT_TRUE(given->mcp.unix_socket.path_given);
}

}  // namespace
}  // namespace mcpud::config
