// SPDX-License-Identifier: MIT
// The built-in pin tools, with the reference firmware's reply shapes.
#include "mcpud/pins/pin_tools.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "board_tools.hpp"
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/json_text.hpp"
#include "mcpud/pins/output_guard.hpp"
#include "mcpud/pins/pin_table.hpp"
#include "mcpud/pins/sensor_reads.hpp"

namespace mcpud::pins {
namespace {

using nlohmann::json;

const json kPinNumber = {{"type", "integer"}, {"description", "Pin number"}};
// Sampled pins are addressed by number or by name, in two properties of one
// type each: hosts that read one type per property see both.
const json kSampledPinNumber = {{"type", "integer"}, {"description", "Pin number (or give name instead)"}};
const json kPinName = {
    {"type", "string"},
    {"description", "Pin name, e.g. \"temp\" or a bridged device's \"uno__sensor\" (or give pin instead)"}};

// The pin that `pin` (a number) and/or `name` address; both must agree.
Result<BoardPin*> addressed_pin(PinTable& pins, const json& args) {
  const auto number = args.find("pin");
  const auto name = args.find("name");
  if (number == args.end() && name == args.end())
    return std::unexpected(Error::invalid_params("arguments: give pin (a number) or name"));
  if (name == args.end()) return pins.find(*number);
  auto by_name = pins.find(*name);
  if (!by_name || number == args.end()) return by_name;
  auto by_number = pins.find(*number);
  if (by_number && *by_number != *by_name)
    return std::unexpected(Error::invalid_params("arguments: pin " + number->dump() + " and name " + name->dump() +
                                                 " are different pins; give one of them"));
  return by_number;
}

// Clients written for the older schema pass a pin's name (or its number as
// text, which PinTable::find also takes) in `pin`.
void pin_name_in_pin_to_name(json& args) {
  const auto pin = args.find("pin");
  if (pin == args.end() || !pin->is_string() || args.contains("name")) return;
  args["name"] = std::move(*pin);
  args.erase("pin");
}

// What pin tools answer: the pin's number and name first, then the reading.
json output_schema(json properties, json required) {
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}};
}
const json kInteger = {{"type", "integer"}};
const json kNumber = {{"type", "number"}};
const json kString = {{"type", "string"}};
const json kBoolean = {{"type", "boolean"}};
json pin_output(json more) {
  json properties = {{"pin", kInteger}, {"name", kString}};
  properties.update(more);
  return output_schema(std::move(properties), {"pin", "name"});
}
// get_pin_buffer and get_pin_events name the pin, and say why when nothing is kept.
json history_output(const char* entries, json entry) {
  json properties = {{"pin", kString},         {entries, {{"type", "array"}, {"items", std::move(entry)}}},
                     {"count", kInteger},      {"first_seq", kInteger},
                     {"next_since", kInteger}, {"last_seq", kInteger},
                     {"lost", kInteger},       {"reason", kString}};
  return output_schema(std::move(properties), {"pin"});
}

json object_schema(json properties, json required) {
  return {{"type", "object"},
          {"properties", std::move(properties)},
          {"required", std::move(required)},
          {"additionalProperties", false}};
}

// Checks that the pin found is one of the board's own and of one of the `allowed` types.
Result<BoardPin*> of_type(Result<BoardPin*> pin, std::string_view tool, std::initializer_list<hal::PinType> allowed) {
  if (!pin) return pin;
  if (!(*pin)->device.empty()) {
    return std::unexpected(Error::domain(
        DomainError::PinNotFound, "Pin not found: '" + (*pin)->name() + "' is on bridged device '" + (*pin)->device +
                                      "': call " + (*pin)->device + "__" + std::string(tool) + " with pin " +
                                      std::to_string((*pin)->number())));
  }
  if (std::find(allowed.begin(), allowed.end(), (*pin)->type()) != allowed.end()) return pin;
  std::string wanted;
  for (const auto type : allowed) wanted += (wanted.empty() ? "" : " or ") + std::string(hal::pin_type_name(type));
  return std::unexpected(Error::domain(
      DomainError::WrongPinType, "Wrong pin type: pin " + std::to_string((*pin)->number()) + " (" + (*pin)->name() +
                                     ") is " + std::string(hal::pin_type_name((*pin)->type())) + "; " +
                                     std::string(tool) + " needs " + wanted));
}

// Finds the pin named by args["pin"] and checks it is one of the `allowed` types.
Result<BoardPin*> pin_for(PinTable& pins, const json& args, std::string_view tool,
                          std::initializer_list<hal::PinType> allowed) {
  return of_type(pins.find(args.at("pin")), tool, allowed);
}

Error hal_failure(int number, const std::string& name, const hal::HalError& error, DomainError kind) {
  const auto what = error.kind == hal::HalError::Kind::Disconnected ? DomainError::DeviceDisconnected : kind;
  return Error::domain(what, "pin " + std::to_string(number) + " (" + name + "): " + error.message);
}
Error hal_failure(const BoardPin& pin, const hal::HalError& error, DomainError kind) {
  return hal_failure(pin.number(), pin.name(), error, kind);
}

// Every pin tool's reply starts with the pin's number and name. The members go
// in key order, each at the end of the object's map: no search and no key
// string built twice, as `reply["pin"] = ...` does (gpio_write and gpio_read are
// the calls agents make most; an initializer list copies each element once more).
json pin_reply(const BoardPin& pin) {
  json reply = json::object();
  auto& members = reply.get_ref<json::object_t&>();
  members.emplace_hint(members.end(), "name", pin.name());
  members.emplace_hint(members.end(), "pin", pin.number());
  return reply;
}

// pin_reply with the pin's "value" after the others ("value" sorts last).
json pin_reply(const BoardPin& pin, json value) {
  json reply = pin_reply(pin);
  auto& members = reply.get_ref<json::object_t&>();
  members.emplace_hint(members.end(), "value", std::move(value));
  return reply;
}

// A few digits are plenty for sensor values and keep replies short.
double round3(double value) { return std::round(value * 1000.0) / 1000.0; }

// Six significant digits: small IIO scales (a few microvolts per count) survive.
double round_significant(double value) {
  if (value == 0 || !std::isfinite(value)) return value;
  const double scale = std::pow(10.0, 5 - std::floor(std::log10(std::fabs(value))));
  return std::round(value * scale) / scale;
}

// What gpio_write and gpio_read did: the pin and its level. Answered as a value
// (pin_reply) or as text (level_text), which the calls agents make most take.
struct PinLevel {
  const BoardPin* pin;
  bool value;
};
using PinLevelFn = Result<PinLevel> (*)(PinTable&, const json&);

Result<PinLevel> read_level(PinTable& pins, const json& args) {
  auto pin = pin_for(pins, args, "gpio_read", {hal::PinType::DigitalInput, hal::PinType::DigitalOutput});
  if (!pin) return std::unexpected(pin.error());
  auto level = (*pin)->input ? (*pin)->input->read() : (*pin)->output->read();
  if (!level) return std::unexpected(hal_failure(**pin, level.error(), DomainError::ReadError));
  return PinLevel{*pin, *level};
}

// pin_reply(pin, level) as the JSON text its value serializes to, written directly.
json level_text(const PinLevel& level) {
  rpc::JsonBytes text;
  text.reserve(48 + level.pin->name().size());
  rpc::append_text(text, R"({"name":)");
  rpc::append_json_string(text, level.pin->name());
  rpc::append_text(text, R"(,"pin":)");
  char digits[16];
  rpc::append_text(text, {digits, std::to_chars(digits, digits + sizeof digits, level.pin->number()).ptr});
  rpc::append_text(text, level.value ? R"(,"value":true})" : R"(,"value":false})");
  return rpc::serialized_result(std::move(text));
}

// hold_ms and dry_run of gpio_write and pwm_write.
OutputWrite output_write(const json& args, int value) {
  OutputWrite w{.value = value, .hold_ms = args.value("hold_ms", 0U), .dry_run = args.value("dry_run", false)};
  if (args.contains("frequency_hz")) w.frequency_hz = args["frequency_hz"].get<std::uint32_t>();
  return w;
}

// A write checked by the guard when `pin` has limits, else written as asked;
// a dry run changes nothing.
Result<WriteOutcome> checked_write(OutputGuard* guard, BoardPin& pin, const OutputWrite& w, const Caller& caller) {
  if (guard && pin.guarded) return guard->write(pin, w, caller);
  if (w.hold_ms) {
    return std::unexpected(
        Error::domain(DomainError::InvalidArgument, "hold_ms: '" + pin.name() + "' has no safe value to return to"));
  }
  if (w.dry_run) return WriteOutcome{};
  hal::HalResult<void> done;
  if (pin.pwm) {
    hal::PwmState state = pin.pwm->state();
    state.duty = w.value / 255.0;
    if (w.frequency_hz) state.frequency_hz = *w.frequency_hz;
    done = pin.pwm->set(state);
  } else {
    done = pin.output->write(w.value != 0);
  }
  if (!done) return std::unexpected(hal_failure(pin, done.error(), DomainError::WriteError));
  return WriteOutcome{};
}

// What a checked write adds to the tool's reply: whether it was a dry run, and what ends the value.
void add_outcome(json& reply, const WriteOutcome& outcome, bool dry_run) {
  if (dry_run) reply["dry_run"] = true;
  if (outcome.revert_reason.empty()) return;
  reply["reverts_after_ms"] = outcome.reverts_after_ms;
  reply["revert_reason"] = outcome.revert_reason;
}

ToolResult pwm_write(PinTable& pins, OutputGuard* guard, const Caller& caller, const json& args) {
  auto pin = pin_for(pins, args, "pwm_write", {hal::PinType::PwmOutput});
  if (!pin) return std::unexpected(pin.error());
  const auto w = output_write(args, args.at("duty").get<int>());
  auto outcome = checked_write(guard, **pin, w, caller);
  if (!outcome) return std::unexpected(std::move(outcome.error()));
  json reply = {{"pin", (*pin)->number()},
                {"name", (*pin)->name()},
                {"duty", w.value},
                {"frequency_hz", w.dry_run && w.frequency_hz ? *w.frequency_hz : (*pin)->pwm->state().frequency_hz}};
  add_outcome(reply, *outcome, w.dry_run);
  return reply;
}

ToolResult adc_read(PinTable& pins, const json& args) {
  auto pin = pin_for(pins, args, "adc_read", {hal::PinType::AdcInput});
  if (!pin) return std::unexpected(pin.error());
  auto reading = (*pin)->adc->read();
  if (!reading) return std::unexpected(hal_failure(**pin, reading.error(), DomainError::ReadError));
  return json{{"pin", (*pin)->number()},
              {"name", (*pin)->name()},
              {"value", reading->raw},
              {"volts", round_significant(reading->millivolts / 1000.0)}};
}

// Replies when the value is in: at once for a fast sensor, after the
// conversion for a slow one (other clients are served meanwhile). The reply
// holds copies of what it names, so a reload during a read does not matter.
void sensor_read(PinTable& pins, SensorReads& reads, const json& args, ToolReply reply) {
  auto pin = of_type(addressed_pin(pins, args), "sensor_read", {hal::PinType::SensorInput});
  if (!pin) return reply(std::unexpected(pin.error()));
  reads.read((*pin)->sensor, [reply = std::move(reply), head = pin_reply(**pin),
                              quantity = (*pin)->sensor->quantity()](const hal::HalResult<double>& value) {
    if (!value) {
      return reply(std::unexpected(
          hal_failure(head["pin"].get<int>(), head["name"].get<std::string>(), value.error(), DomainError::ReadError)));
    }
    json out = head;
    out["value"] = round_significant(*value);
    out["unit"] = quantity.unit;
    out["quantity"] = quantity.name;
    reply(std::move(out));
  });
}

// "Read a sensor input pin ...: 40 room_temp (temperature, degC), ..." so an
// agent sees in list_tools what each sensor measures and in which unit.
std::string sensor_read_description(const PinTable& pins) {
  constexpr std::size_t kListed = 16;  // keeps list_tools short on a board with many sensors
  std::string text = "Read a sensor input pin: its value in SI units, the unit and the quantity. Sensors:";
  std::size_t count = 0;
  for (const auto& pin : pins.pins()) {
    if (!pin->sensor || ++count > kListed) continue;
    const auto& q = pin->sensor->quantity();
    text += std::string(count > 1 ? "," : "") + " " + std::to_string(pin->number()) + " " + pin->name() + " (" +
            q.name + (q.unit.empty() ? "" : ", " + q.unit) + ")";
  }
  if (count > kListed) text += " and " + std::to_string(count - kListed) + " more (list_tools pins)";
  return text;
}

ToolResult get_pin_summary(PinTable& pins, const json& args) {
  auto pin = addressed_pin(pins, args);
  if (!pin) return std::unexpected(pin.error());
  const PinSampler* sampler = (*pin)->sampler.get();
  if (!sampler || !sampler->options().summary) {
    return std::unexpected(
        Error::domain(DomainError::SamplingNotEnabled, "Summary not enabled for this pin: " + (*pin)->name()));
  }
  const auto& s = sampler->summary();
  return json{{"pin", (*pin)->number()},
              {"name", (*pin)->name()},
              {"latest", s.latest},
              {"min", s.min},
              {"max", s.max},
              {"avg", round3(s.mean)},
              {"samples", s.count},
              {"missed", s.missed},
              {"latest_timestamp_ms", s.latest_timestamp_ms}};
}

// The part of a sequenced read every drainable reply carries.
template <class Slice>
void add_cursor(json& reply, const Slice& slice, std::uint64_t since, std::uint64_t last_seq) {
  reply["count"] = slice.entries.size();
  reply["first_seq"] = slice.entries.empty() ? last_seq + 1 : slice.entries.front()->seq;
  reply["next_since"] = slice.entries.empty() ? std::min(last_seq, since) : slice.entries.back()->seq;
  reply["last_seq"] = last_seq;
  reply["lost"] = slice.lost;
}

ToolResult get_pin_buffer(PinTable& pins, const json& args) {
  auto pin = addressed_pin(pins, args);
  if (!pin) return std::unexpected(pin.error());
  const PinSampler* sampler = (*pin)->sampler.get();
  if (!sampler || sampler->options().buffer_size == 0) {
    return json{
        {"pin", (*pin)->name()}, {"buffer_available", false}, {"reason", "no sample buffer configured for this pin"}};
  }
  const auto since = args.at("since").get<std::uint64_t>();
  const auto limit =
      args.contains("limit") ? args["limit"].get<std::size_t>() : std::numeric_limits<std::size_t>::max();
  const auto slice = sampler->buffer().read(since, limit);
  json values = json::array();
  json timestamps = json::array();
  for (const auto* entry : slice.entries) {
    values.push_back(entry->item.value);
    timestamps.push_back(entry->item.timestamp_ms);
  }
  json reply = {
      {"pin", (*pin)->name()}, {"values", std::move(values)}, {"interval_ms", sampler->options().interval_ms}};
  if (args.at("timestamps").get<bool>()) reply["timestamps_ms"] = std::move(timestamps);
  add_cursor(reply, slice, since, sampler->buffer().last_seq());
  return reply;
}

ToolResult get_pin_events(PinTable& pins, const json& args) {
  auto pin = addressed_pin(pins, args);
  if (!pin) return std::unexpected(pin.error());
  const PinSampler* sampler = (*pin)->sampler.get();
  if (!sampler || !sampler->options().events_enabled()) {
    return json{{"pin", (*pin)->name()},
                {"events", json::array()},
                {"events_available", false},
                {"reason", "no thresholds or edges configured for this pin"}};
  }
  const auto since = args.at("since").get<std::uint64_t>();
  const auto limit =
      args.contains("limit") ? args["limit"].get<std::size_t>() : std::numeric_limits<std::size_t>::max();
  const auto slice = sampler->events().read(since, limit);
  json events = json::array();
  for (const auto* entry : slice.entries) {
    const auto& e = entry->item;
    json event = {
        {"seq", entry->seq}, {"type", event_type_name(e.type)}, {"value", e.value}, {"timestamp_ms", e.timestamp_ms}};
    if (e.threshold) event["threshold"] = *e.threshold;
    events.push_back(std::move(event));
  }
  json reply = {{"pin", (*pin)->name()}, {"events", std::move(events)}};
  add_cursor(reply, slice, since, sampler->events().last_seq());
  return reply;
}

using PinToolFn = ToolResult (*)(PinTable&, const json&);

// Where a tool that drives an output announces it; null for the others.
struct Announce {
  EventHub* events = nullptr;
};

Tool pin_tool(ToolDescription description) {
  description.owner = kPinToolsOwner;
  auto tool = make_tool(std::move(description));
  if (tool.input_schema["properties"].contains("name")) tool.upgrade_arguments = pin_name_in_pin_to_name;
  return tool;
}

void add(ToolRegistry& registry, PinTable& pins, ToolDescription description, PinToolFn fn, Announce announce = {}) {
  auto tool = pin_tool(std::move(description));
  if (announce.events) {
    tool.invoke = [&pins, fn, events = announce.events](json&& args, ToolReply&& reply) {
      auto result = fn(pins, args);
      // Built only when someone wants it (a subscriber to the pin's resource,
      // the fleet uplink).
      if (result && events->wanted(EventKind::PinChanged)) {
        events->publish({EventKind::PinChanged, (*result)["name"].get<std::string>(), *result});
      }
      reply(std::move(result));
    };
  } else {
    tool.invoke = [&pins, fn](json&& args, ToolReply&& reply) { reply(fn(pins, args)); };
  }
  register_pin_tool(registry, std::move(tool));
}

// gpio_read: answered as text to the callers that take it.
void add_level_tool(ToolRegistry& registry, PinTable& pins, ToolDescription description, PinLevelFn fn) {
  description.output_schema = pin_output({{"value", kBoolean}});
  auto tool = pin_tool(std::move(description));
  tool.invoke = [&pins, fn](json&& args, ToolReply&& reply) {
    auto level = fn(pins, args);
    if (!level) return reply(std::unexpected(std::move(level.error())));
    reply(pin_reply(*level->pin, level->value));
  };
  tool.invoke_as_text = [&pins, fn](const Caller&, const json& args) -> ToolResult {
    auto level = fn(pins, args);
    if (!level) return std::unexpected(std::move(level.error()));
    return level_text(*level);
  };
  register_pin_tool(registry, std::move(tool));
}

// gpio_write. An output without limits is written at once and answered as text
// to the callers that take it (the pipelined hot path); a guarded one, a pulse
// or a dry run goes through the guard. The PinChanged event is built only when
// someone wants it (a subscriber to the pin's resource, the fleet uplink).
ToolResult gpio_write(PinTable& pins, OutputGuard* guard, EventHub* events, const Caller& caller, const json& args,
                      bool as_text) {
  auto found = pin_for(pins, args, "gpio_write", {hal::PinType::DigitalOutput});
  if (!found) return std::unexpected(found.error());
  BoardPin& pin = **found;
  const bool value = args.at("value").get<bool>();
  const auto announce = [&] {
    if (events && events->wanted(EventKind::PinChanged))
      events->publish({EventKind::PinChanged, pin.name(), pin_reply(pin, value)});
  };
  if (!pin.guarded && !args.contains("hold_ms") && !args.contains("dry_run")) {
    if (auto written = pin.output->write(value); !written) {
      return std::unexpected(hal_failure(pin, written.error(), DomainError::WriteError));
    }
    announce();
    return as_text ? level_text({&pin, value}) : pin_reply(pin, value);
  }
  const auto w = output_write(args, value ? 1 : 0);
  auto outcome = checked_write(guard, pin, w, caller);
  if (!outcome) return std::unexpected(std::move(outcome.error()));
  if (!w.dry_run) announce();
  // A write that stays answers as an unguarded one does: most writes of a
  // guarded output (switching it off, or on with nothing to end it).
  if (as_text && !w.dry_run && outcome->revert_reason.empty()) return level_text({&pin, value});
  json reply = pin_reply(pin, value);
  add_outcome(reply, *outcome, w.dry_run);
  return reply;
}

void add_gpio_write(ToolRegistry& registry, PinTable& pins, OutputGuard* guard, EventHub* events,
                    std::string description, json schema) {
  auto tool = pin_tool(
      {.name = "gpio_write",
       .title = "Write a digital output",
       .description = std::move(description),
       .input_schema = std::move(schema),
       .output_schema = pin_output(
           {{"value", kBoolean}, {"dry_run", kBoolean}, {"reverts_after_ms", kInteger}, {"revert_reason", kString}}),
       .hints = kDrivesLoads});
  tool.invoke = [&pins, guard, events](const Caller& caller, json&& args, ToolReply&& reply) {
    reply(gpio_write(pins, guard, events, caller, args, false));
  };
  tool.invoke_as_text = [&pins, guard, events](const Caller& caller, const json& args) {
    return gpio_write(pins, guard, events, caller, args, true);
  };
  register_pin_tool(registry, std::move(tool));
}

void add_pwm_write(ToolRegistry& registry, PinTable& pins, OutputGuard* guard, EventHub* events,
                   std::string description, json schema) {
  auto tool = pin_tool({.name = "pwm_write",
                        .title = "Set a PWM output",
                        .description = std::move(description),
                        .input_schema = std::move(schema),
                        .output_schema = pin_output({{"duty", kInteger},
                                                     {"frequency_hz", kNumber},
                                                     {"dry_run", kBoolean},
                                                     {"reverts_after_ms", kInteger},
                                                     {"revert_reason", kString}}),
                        .hints = kDrivesLoads});
  tool.invoke = [&pins, guard, events](const Caller& caller, json&& args, ToolReply&& reply) {
    auto result = pwm_write(pins, guard, caller, args);
    if (result && !args.value("dry_run", false) && events && events->wanted(EventKind::PinChanged)) {
      json changed = *result;
      for (const char* extra : {"reverts_after_ms", "revert_reason"}) changed.erase(extra);
      events->publish({EventKind::PinChanged, changed["name"].get<std::string>(), std::move(changed)});
    }
    reply(std::move(result));
  };
  register_pin_tool(registry, std::move(tool));
}

// hold_ms and dry_run, the arguments of gpio_write and pwm_write that the guard answers.
void add_write_properties(json& properties) {
  properties["hold_ms"] = {{"type", "integer"},
                           {"minimum", 1},
                           {"maximum", 86400000},
                           {"description", "Return to the safe value after this many ms (a pulse mcpud ends itself)"}};
  properties["dry_run"] = {
      {"type", "boolean"},
      {"description", "Check every limit and answer what would happen, without changing the output"}};
}

// A write tool's description with the limits an agent must plan for.
std::string with_limits(std::string description, const OutputGuard* guard, const PinTable& pins, bool pwm) {
  if (!guard) return description;
  const auto limits = guard->summary(pins, pwm);
  if (limits.empty()) return description;
  return description + ". Limits set by the board's owner, which mcpud enforces: " + limits;
}

json cursor_properties() {
  return {{"pin", kSampledPinNumber},
          {"name", kPinName},
          {"since",
           {{"type", "integer"},
            {"minimum", 0},
            {"default", 0},
            {"description", "Return only entries with a sequence number above this (next_since of the last reply)"}}},
          {"limit", {{"type", "integer"}, {"minimum", 1}, {"description", "At most this many entries, oldest first"}}}};
}

}  // namespace

void register_pin_tools(ToolRegistry& registry, PinTable& pins, SensorReads& reads, EventHub* events,
                        OutputGuard* guard) {
  ToolRegistry::Batch batch(registry);
  json write_properties = {{"pin", kPinNumber},
                           {"value", {{"type", "boolean"}, {"description", "true = HIGH, false = LOW"}}}};
  add_write_properties(write_properties);
  add_gpio_write(registry, pins, guard, events,
                 with_limits("Write HIGH or LOW to a digital output pin", guard, pins, false),
                 object_schema(std::move(write_properties), {"pin", "value"}));
  add_level_tool(registry, pins,
                 {.name = "gpio_read",
                  .title = "Read a digital pin",
                  .description = "Read the level of a digital input or output pin",
                  .input_schema = object_schema({{"pin", kPinNumber}}, {"pin"}),
                  .hints = kReads},
                 read_level);
  json pwm_properties = {
      {"pin", kPinNumber},
      {"duty", {{"type", "integer"}, {"minimum", 0}, {"maximum", 255}, {"description", "0 = off, 255 = fully on"}}},
      {"frequency_hz",
       {{"type", "integer"}, {"minimum", 1}, {"maximum", 100000000}, {"description", "PWM frequency in Hz"}}}};
  add_write_properties(pwm_properties);
  add_pwm_write(
      registry, pins, guard, events,
      with_limits("Set the duty cycle (0-255) and optionally the frequency of a PWM output pin", guard, pins, true),
      object_schema(std::move(pwm_properties), {"pin", "duty"}));
  add(registry, pins,
      {.name = "adc_read",
       .title = "Read an analog input",
       .description = "Read an analog input pin: raw value and volts",
       .input_schema = object_schema({{"pin", kPinNumber}}, {"pin"}),
       .output_schema = pin_output({{"value", kNumber}, {"volts", kNumber}}),
       .hints = kReads},
      adc_read);

  register_board_tools(registry, pins);
  if (std::any_of(pins.pins().begin(), pins.pins().end(), [](const auto& p) { return p->sensor != nullptr; })) {
    auto tool =
        pin_tool({.name = "sensor_read",
                  .title = "Read a sensor",
                  .description = sensor_read_description(pins),
                  .input_schema = object_schema({{"pin", kSampledPinNumber}, {"name", kPinName}}, json::array()),
                  .output_schema = pin_output({{"value", kNumber}, {"unit", kString}, {"quantity", kString}}),
                  .hints = kReads});
    tool.invoke = [&pins, &reads](json args, ToolReply reply) { sensor_read(pins, reads, args, std::move(reply)); };
    register_pin_tool(registry, std::move(tool));
  }

  // Bridged devices' buffered pins are read through these tools too.
  const bool any_sampled = pins.has_foreign() || std::any_of(pins.pins().begin(), pins.pins().end(),
                                                             [](const auto& p) { return p->sampler != nullptr; });
  if (!any_sampled) return;
  add(registry, pins,
      {.name = "get_pin_summary",
       .title = "Summarise a sampled pin",
       .description = "Statistics of a sampled input pin since start: latest, min, max, avg, samples, and missed "
                      "(sampling ticks that gave no sample: the board was too busy, or the read was slow or failed)",
       .input_schema = object_schema({{"pin", kSampledPinNumber}, {"name", kPinName}}, json::array()),
       .output_schema = pin_output({{"latest", kNumber},
                                    {"min", kNumber},
                                    {"max", kNumber},
                                    {"avg", kNumber},
                                    {"samples", kInteger},
                                    {"missed", kInteger},
                                    {"latest_timestamp_ms", kInteger}}),
       .hints = kReads},
      get_pin_summary);
  auto buffer_properties = cursor_properties();
  buffer_properties["timestamps"] = {
      {"type", "boolean"}, {"default", false}, {"description", "Also return each sample's time (ms since the epoch)"}};
  add(registry, pins,
      {.name = "get_pin_buffer",
       .title = "Read a pin's recent samples",
       .description = "Recent samples of a buffered input pin, oldest first; pass next_since back as since to read "
                      "only new samples",
       .input_schema = object_schema(std::move(buffer_properties), json::array()),
       .output_schema = history_output("values", kNumber),
       .hints = kReads},
      get_pin_buffer);
  add(registry, pins,
      {.name = "get_pin_events",
       .title = "Read a pin's events",
       .description = "Queued events of an input pin (threshold crossings, edges), oldest first; pass next_since back "
                      "as since to read only new ones",
       .input_schema = object_schema(cursor_properties(), json::array()),
       .output_schema = history_output("events", {{"type", "object"}}),
       .hints = kReads},
      get_pin_events);
}

json describe_pins(const PinTable& pins, const OutputGuard* guard) {
  json out = json::array();
  for (const auto& pin : pins.pins()) {
    json entry = {{"pin", pin->number()},
                  {"name", pin->name()},
                  {"type", hal::pin_type_name(pin->type())},
                  {"description", pin->config.description}};
    if (guard && pin->guarded) entry["limits"] = guard->describe(*pin);
    if (pin->sensor) {
      entry["quantity"] = pin->sensor->quantity().name;
      entry["unit"] = pin->sensor->quantity().unit;
    }
    if (pin->sampler) {
      const auto& o = pin->sampler->options();
      entry["capabilities"] = {{"summary", o.summary}, {"buffer", o.buffer_size > 0}, {"events", o.events_enabled()}};
      // Pins with hardware edge events only are not sampled on a timer.
      if (o.interval_ms > 0) entry["sampling"] = {{"interval_ms", o.interval_ms}, {"buffer_size", o.buffer_size}};
    }
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace mcpud::pins
