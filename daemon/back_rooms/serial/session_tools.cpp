// SPDX-License-Identifier: MIT
// Finding ports and opening, listing, flushing and closing sessions.
#include <chrono>

#include "mcpud/core/enum_names.hpp"
#include "mcpud/serial/serial_tools.hpp"
#include "port_access.hpp"
#include "tool_arguments.hpp"

namespace mcpud::serial {
namespace {

using nlohmann::json;
namespace parts = schema_parts;

json port_json(const PortInfo& port, const SerialService& service, const Caller& caller) {
  json out = {{"name", port.name}, {"description", port.description}, {"kind", port.kind}};
  if (!port.driver.empty()) out["driver"] = port.driver;
  if (port.usb) {
    out["vid"] = port.usb->vendor_id;
    out["pid"] = port.usb->product_id;
    out["manufacturer"] = port.usb->manufacturer;
    out["product"] = port.usb->product;
    out["serial_number"] = port.usb->serial_number;
    if (!port.usb->interface.empty()) out["interface"] = port.usb->interface;
  }
  out["by_id"] = port.by_id;
  out["by_path"] = port.by_path;
  if (!port.target.empty()) out["device"] = port.target;
  std::error_code ec;
  const auto device = std::filesystem::canonical(port.name, ec).string();
  out["allowed"] = port_allowed(service.config(), port.name) || (!ec && port_allowed(service.config(), device));
  if (auto holder = service.session_for_device(ec ? port.name : device)) {
    out["in_use"] = true;
    if (holder->usable_by(caller.identity)) out["session_id"] = holder->options().id;  // another client's stays unnamed
  }
  return out;
}

json settings_json(const SerialSession& session) {
  const auto& o = session.options();
  return {{"session_id", o.id},
          {"port", o.port},
          {"device", o.device},
          {"baud", o.settings.baud},
          {"data_bits", o.settings.data_bits},
          {"stop_bits", o.settings.stop_bits == io::StopBits::OnePointFive
                            ? json(1.5)
                            : json(io::stop_bits_value(o.settings.stop_bits) == 2 ? 2 : 1)},
          {"parity", io::parity_name(o.settings.parity)},
          {"flow_control", io::flow_control_name(o.settings.flow_control)},
          {"timeout_ms", o.default_timeout.count()},
          {"newline", o.newline},
          {"buffer_bytes", o.buffer_bytes}};
}

std::string_view state_name(SessionState state) {
  static constexpr EnumNames<SessionState, 3> kNames{
      {{SessionState::Open, "open"}, {SessionState::Disconnected, "disconnected"}, {SessionState::Closed, "closed"}}};
  return name_of(kNames, state, "open");
}

json session_json(const SerialSession& session) {
  json out = settings_json(session);
  const auto& c = session.counters();
  out["state"] = state_name(session.state());
  if (session.state() == SessionState::Disconnected) out["disconnect_reason"] = session.gone_reason();
  out["bytes_received"] = c.received;
  out["bytes_sent"] = c.sent;
  out["bytes_delivered"] = c.delivered;
  out["bytes_buffered"] = session.buffered();
  out["bytes_lost"] = session.lost();
  out["bytes_discarded"] = c.discarded;
  out["pending_reads"] = session.pending_reads();
  out["opened_at_ms"] =
      std::chrono::duration_cast<std::chrono::milliseconds>(session.opened_at().time_since_epoch()).count();
  return out;
}

// Settings the driver did not take as asked (a pty is always 8N1, a UART may
// round the baud rate): the reply says so rather than pretending.
json adjustments(const io::PortSettings& asked, const io::PortSettings& got) {
  json changed = json::array();
  const auto note = [&](const char* field, const auto& want, const auto& have) {
    if (want != have) changed.push_back(std::string(field) + ": asked " + want + ", the driver uses " + have);
  };
  note("baud", std::to_string(asked.baud), std::to_string(got.baud));
  note("data_bits", std::to_string(asked.data_bits), std::to_string(got.data_bits));
  note("stop_bits", json(io::stop_bits_value(asked.stop_bits)).dump(), json(io::stop_bits_value(got.stop_bits)).dump());
  note("parity", std::string(io::parity_name(asked.parity)), std::string(io::parity_name(got.parity)));
  note("flow_control", std::string(io::flow_control_name(asked.flow_control)),
       std::string(io::flow_control_name(got.flow_control)));
  return changed;
}

Result<OpenRequest> open_request(const json& args, const SerialConfig& config) {
  OpenRequest request;
  request.port = args.at("port").get<std::string>();
  request.settings.baud = args.contains("baud") ? args["baud"].get<std::uint32_t>() : config.default_baud;
  request.settings.data_bits = args.at("data_bits").get<int>();
  request.settings.stop_bits = io::stop_bits_from(args.at("stop_bits").get<double>()).value_or(io::StopBits::One);
  request.settings.parity = io::parse_parity(args.at("parity").get<std::string>()).value_or(io::Parity::None);
  request.settings.flow_control =
      io::parse_flow_control(args.at("flow_control").get<std::string>()).value_or(io::FlowControl::None);
  if (auto checked = check(request.settings); !checked)
    return std::unexpected(invalid_argument("params." + checked.error()));
  request.timeout =
      Millis(args.contains("timeout_ms") ? args["timeout_ms"].get<std::uint32_t>() : config.default_timeout_ms);
  request.newline = args.contains("newline") ? args["newline"].get<std::string>() : config.newline;
  request.buffer_bytes = args.contains("buffer_bytes") ? args["buffer_bytes"].get<std::size_t>() : config.buffer_bytes;
  return request;
}

void add_list_ports(ToolRegistry& registry, SerialService& service) {
  add_tool(
      registry, "serial_list_ports", "List serial ports",
      "List the board's serial ports (device path, description, USB ids, by-id/by-path links, whether the "
      "configuration allows opening it); an empty list is not an error",
      parts::object(json::object(), json::array()),
      output_schema({{"ports", {{"type", "array"}, {"items", {{"type", "object"}}}}}}, {"ports"}),
      [&service](const Caller& caller, json, ToolReply reply) {
        json ports = json::array();
        for (const auto& port : service.list_ports()) ports.push_back(port_json(port, service, caller));
        reply(json{{"ports", std::move(ports)}});
      },
      kReads);
}

void add_connect(ToolRegistry& registry, SerialService& service) {
  const json properties = {
      {"port", parts::text(1, 4096, "Device path, e.g. /dev/ttyACM0 or a /dev/serial/by-id link")},
      {"baud", parts::integer(50, 16000000,
                              "Baud rate (default SERIAL_MCP_DEFAULT_BAUD, else 115200); any rate the driver takes")},
      {"data_bits", {{"type", "integer"}, {"enum", {5, 6, 7, 8}}, {"default", 8}, {"description", "5, 6, 7 or 8"}}},
      {"stop_bits",
       {{"type", "number"}, {"enum", {1, 1.5, 2}}, {"default", 1}, {"description", "1, 1.5 (with 5 data bits) or 2"}}},
      {"parity", {{"type", "string"}, {"enum", {"none", "even", "odd", "mark", "space"}}, {"default", "none"}}},
      {"flow_control", {{"type", "string"}, {"enum", {"none", "rts_cts", "xon_xoff"}}, {"default", "none"}}},
      {"timeout_ms",
       parts::timeout_ms("Default read timeout of the session (default SERIAL_MCP_DEFAULT_TIMEOUT_MS, else 100)")},
      {"newline",
       {{"type", "string"},
        {"enum", {"\n", "\r\n", "\r"}},
        {"description", "What append_newline sends (default \"\\n\")"}}},
      {"buffer_bytes", parts::integer(256, 67108864,
                                      "Receive ring buffer size (default 1 MiB; all sessions together at most [serial] "
                                      "buffer_bytes_total, default 16 MiB)")}};
  add_tool(
      registry, "serial_connect", "Open a serial port",
      "Open a serial port that the configuration allows, exclusively; a background reader buffers everything it "
      "receives from now on. The session is yours alone unless the configuration shares sessions",
      parts::object(properties, {"port"}),
      output_schema(
          {{"session_id", {{"type", "string"}}}, {"port", {{"type", "string"}}}, {"baud", {{"type", "integer"}}}},
          {"session_id"}),
      [&service](const Caller& caller, json args, ToolReply reply) {
        auto request = open_request(args, service.config());
        if (!request) return reply(std::unexpected(request.error()));
        auto session = service.open(*request, caller.identity);
        if (!session) return reply(std::unexpected(session.error()));
        json out = settings_json(**session);
        if (auto changed = adjustments(request->settings, (*session)->options().settings); !changed.empty()) {
          out["adjusted_by_driver"] = std::move(changed);
        }
        reply(std::move(out));
      },
      kOpensASession);
}

void add_disconnect(ToolRegistry& registry, SerialService& service) {
  add_tool(
      registry, "serial_disconnect", "Close a serial session", "Close a serial session and release its port",
      parts::object({{"session_id", parts::session_id()}}, {"session_id"}),
      output_schema({{"success", {{"type", "boolean"}}}, {"message", {{"type", "string"}}}}),
      [&service](const Caller& caller, json args, ToolReply reply) {
        with_session(service, caller, args, reply, [&](const std::shared_ptr<SerialSession>& session) {
          const bool was_gone = session->state() == SessionState::Disconnected;
          const auto unread = session->buffered();
          service.close(session->options().id);
          std::string message = "closed " + session->options().port;
          if (was_gone) message += " (the device had been disconnected: " + session->gone_reason() + ")";
          if (unread > 0) message += "; " + std::to_string(unread) + " unread bytes dropped";
          reply(json{{"success", true}, {"message", message}});
        });
      },
      kDiscards);
}

void add_list_sessions(ToolRegistry& registry, SerialService& service) {
  add_tool(
      registry, "serial_list_sessions", "List serial sessions",
      "List your serial sessions with their settings, state and byte counters (received, sent, buffered, lost)",
      parts::object(json::object(), json::array()),
      output_schema({{"sessions", {{"type", "array"}, {"items", {{"type", "object"}}}}}}, {"sessions"}),
      [&service](const Caller& caller, json, ToolReply reply) {
        json sessions = json::array();
        for (const auto& session : service.sessions(caller.identity)) sessions.push_back(session_json(*session));
        reply(json{{"sessions", std::move(sessions)}});
      },
      kReads);
}

void add_flush(ToolRegistry& registry, SerialService& service) {
  add_tool(
      registry, "serial_flush", "Discard a serial session's buffers",
      "Discard buffered input (received, not yet read) and/or unsent output",
      parts::object({{"session_id", parts::session_id()},
                     {"input", parts::boolean("Discard received bytes not yet read", true)},
                     {"output", parts::boolean("Discard bytes written but not yet sent", false)}},
                    {"session_id"}),
      output_schema({{"discarded_bytes", {{"type", "integer"}}}}),
      [&service](const Caller& caller, json args, ToolReply reply) {
        with_session(service, caller, args, reply, [&](const std::shared_ptr<SerialSession>& session) {
          auto dropped = session->flush(args.at("input").get<bool>(), args.at("output").get<bool>());
          if (!dropped) return reply(std::unexpected(dropped.error()));
          reply(json{{"discarded_bytes", *dropped}});
        });
      },
      kDiscards);
}

}  // namespace

void register_session_tools(ToolRegistry& registry, SerialService& service) {
  add_list_ports(registry, service);
  add_connect(registry, service);
  add_disconnect(registry, service);
  add_list_sessions(registry, service);
  add_flush(registry, service);
}

void register_serial_tools(ToolRegistry& registry, SerialService& service) {
  ToolRegistry::Batch batch(registry);
  register_session_tools(registry, service);
  register_io_tools(registry, service);
}

}  // namespace mcpud::serial
