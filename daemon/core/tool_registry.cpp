// SPDX-License-Identifier: MIT
// The tool registry: lookup, schema validation before invocation, change events.
#include "mcpud/core/tool_registry.hpp"

#include <algorithm>

#include "mcpud/core/calls_asked.hpp"
#include "mcpud/core/json_dispose.hpp"
#include "mcpud/core/schema.hpp"

namespace mcpud {

namespace {

std::uint64_t calls_asked = 0;  // the event loop's only (mcpud has one thread)

// Brings the arguments of a call to `tool` to their current form and checks
// them against its schema: the error names what is wrong, under `root`.
Result<void> checked_arguments(const Tool& tool, const schema::CompiledSchema& schema, nlohmann::json& arguments,
                               std::string_view root) {
  if (tool.upgrade_arguments && arguments.is_object()) tool.upgrade_arguments(arguments);
  if (auto valid = schema.validate(arguments, root); !valid)
    return std::unexpected(Error::invalid_params(valid.error()));
  return {};
}

// A call answered by the tool's invoke_as_text, as guarded() answers the others
// when the tool throws.
ToolResult answer_as_text(const Tool& tool, const schema::CompiledSchema& schema, const Caller& caller,
                          nlohmann::json& arguments, std::string_view root) {
  try {
    if (auto checked = checked_arguments(tool, schema, arguments, root); !checked) {
      return std::unexpected(std::move(checked.error()));
    }
    return tool.invoke_as_text(caller, arguments);
  } catch (const std::exception& e) {
    return std::unexpected(Error::internal(std::string("Internal error: ") + e.what()));
  }
}

// Whether `tool` declares dry_run in its schema's properties.
bool declares_dry_run(const Tool& tool) {
  const auto properties = tool.input_schema.find("properties");
  return properties != tool.input_schema.end() && properties->is_object() &&
         properties->contains(std::string(kDryRunArgument));
}

// Adds dry_run to an object schema that does not declare it.
void add_dry_run(nlohmann::json& schema) {
  if (!schema.is_object()) return;
  if (const auto type = schema.find("type"); type != schema.end() && *type != "object") return;
  auto& properties = schema["properties"];
  if (!properties.is_object()) properties = nlohmann::json::object();
  properties[std::string(kDryRunArgument)] = {
      {"type", "boolean"}, {"description", "true: check what the call would do and change nothing (docs/safety.md)"}};
}

// Runs a tool on arguments already checked, as text for a caller that takes it.
void invoke_checked(const Tool& tool, const Caller& caller, nlohmann::json& arguments, ToolReply&& reply,
                    bool as_text) {
  if (as_text) {
    ToolResult result;
    try {
      result = tool.invoke_as_text(caller, arguments);
    } catch (const std::exception& e) {
      result = std::unexpected(Error::internal(std::string("Internal error: ") + e.what()));
    }
    reply(std::move(result));
    return;
  }
  guarded(std::move(reply),
          [&](ToolReply guarded_reply) { tool.run(caller, std::move(arguments), std::move(guarded_reply)); });
}

}  // namespace

ToolRegistry::ToolRegistry() = default;
ToolRegistry::~ToolRegistry() = default;

Result<void> ToolRegistry::add(Tool tool) {
  if (tool.name.empty()) return std::unexpected(Error::invalid_params("tool name is empty"));
  if (!tool.runnable()) return std::unexpected(Error::invalid_params("tool '" + tool.name + "' has nothing to run"));
  if (by_name_.contains(tool.name)) {
    return std::unexpected(Error::invalid_params("a tool named '" + tool.name + "' already exists"));
  }
  const bool native_dry_run = declares_dry_run(tool);
  if (gate_ && is_actuating(tool) && !native_dry_run) add_dry_run(tool.input_schema);
  auto shared = std::make_shared<const Tool>(std::move(tool));
  by_name_.emplace(shared->name, Entry{shared,
                                       std::make_shared<const schema::CompiledSchema>(
                                           shared->input_schema, schema::Options{shared->coerce_numeric_strings}),
                                       native_dry_run});
  tools_.push_back(std::move(shared));
  changed();
  return {};
}

std::size_t ToolRegistry::remove_owner(std::string_view owner) {
  const auto removed = std::erase_if(tools_, [&](const auto& tool) { return tool->owner == owner; });
  if (removed == 0) return 0;
  std::erase_if(by_name_, [&](const auto& entry) { return entry.second.tool->owner == owner; });
  changed();
  return removed;
}

const ToolRegistry::Entry* ToolRegistry::entry(std::string_view name) const {
  const auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &it->second;
}

std::shared_ptr<const Tool> ToolRegistry::find(std::string_view name) const {
  const Entry* found = entry(name);
  return found ? found->tool : nullptr;
}

bool ToolRegistry::calls_observed() const {
  const auto observer = observer_.lock();
  return observer && observer->wants_calls();
}

ToolReply ToolRegistry::observed(const Caller& caller, std::string_view name, const nlohmann::json& arguments,
                                 ToolReply reply) const {
  return [observer = observer_, caller, tool = std::string(name), arguments, started = std::chrono::system_clock::now(),
          clock = std::chrono::steady_clock::now(), reply = std::move(reply)](ToolResult outcome) {
    const auto duration = std::chrono::steady_clock::now() - clock;
    if (auto watching = observer.lock()) watching->on_call({caller, tool, arguments, outcome, started, duration});
    reply(std::move(outcome));
  };
}

void ToolRegistry::set_absence_reason(std::string_view pattern, std::string reason) {
  std::erase_if(absence_reasons_, [&](const auto& known) { return known.first == pattern; });
  if (!reason.empty()) absence_reasons_.emplace_back(pattern, std::move(reason));
}

std::string ToolRegistry::not_found_message(std::string_view name) const {
  std::string message = "Method not found: " + std::string(name);
  for (const auto& [pattern, reason] : absence_reasons_) {
    if (wildcard_match(pattern, name)) return message + " (" + reason + ")";
  }
  return message;
}

bool ToolRegistry::is_user_only(std::string_view name) const {
  return std::any_of(user_only_names_.begin(), user_only_names_.end(),
                     [&](const auto& pattern) { return wildcard_match(pattern, name); });
}

bool ToolRegistry::requires_user_tools(std::string_view name) const {
  const Entry* found = entry(name);
  return found ? is_user_only(*found->tool) : is_user_only(name);
}

std::uint64_t tool_calls_asked() { return calls_asked; }

void ToolRegistry::call(const Caller& caller, std::string_view name, nlohmann::json&& arguments, ToolReply&& reply,
                        std::string_view arguments_root) const {
  ++calls_asked;
  // An observer (the activity log) reads results as values.
  const bool observing = calls_observed();
  if (observing) reply = observed(caller, name, arguments, std::move(reply));
  const Entry* found = entry(name);
  if (!caller.user_tools && (found ? is_user_only(*found->tool) : is_user_only(name))) {
    reply(std::unexpected(Error::domain(DomainError::NotAuthorized, "Not authorized: " + std::string(name) +
                                                                        " is a user-only tool; " + caller.refusal)));
    return;
  }
  if (!found) {
    reply(std::unexpected(Error::method_not_found(not_found_message(name))));
    return;
  }
  if (arguments.is_null()) arguments = nlohmann::json::object();
  // Holding the shared_ptr keeps the tool alive even if its owner goes away
  // while an invocation is in flight.
  auto tool = found->tool;
  const bool as_text = tool->invoke_as_text && caller.takes_text_results && !observing;
  if (gate_ && is_actuating(*tool)) {
    call_gated(caller, *found, std::move(arguments), std::move(reply), arguments_root, as_text);
    return;
  }
  if (as_text) {
    // Synchronous: answered here, an exception included, with no state shared with the reply.
    reply(answer_as_text(*tool, *found->schema, caller, arguments, arguments_root));
    dispose(arguments);  // freed in place (json_dispose.hpp)
    return;
  }
  guarded(std::move(reply), [&](ToolReply guarded_reply) {
    if (auto checked = checked_arguments(*tool, *found->schema, arguments, arguments_root); !checked) {
      guarded_reply(std::unexpected(std::move(checked.error())));
      return;
    }
    tool->run(caller, std::move(arguments), std::move(guarded_reply));
    // A tool that reads its arguments in place leaves them here: freed without
    // nlohmann's flattening (json_dispose.hpp). One that kept them moved them out.
    dispose(arguments);
  });
}

void ToolRegistry::call_gated(const Caller& caller, const Entry& found, nlohmann::json&& arguments, ToolReply&& reply,
                              std::string_view arguments_root, bool as_text) const {
  try {
    if (auto checked = checked_arguments(*found.tool, *found.schema, arguments, arguments_root); !checked) {
      reply(std::unexpected(std::move(checked.error())));
      return;
    }
  } catch (const std::exception& e) {
    reply(std::unexpected(Error::internal(std::string("Internal error: ") + e.what())));
    return;
  }
  GateProceed proceed = [tool = found.tool, native = found.native_dry_run, as_text](
                            const Caller& who, nlohmann::json&& checked, ToolReply&& answer) {
    // A tool that does not know dry_run never sees it.
    // A dry run's answer is a value the gate may add to (needs_approval).
    bool dry_run = false;
    if (checked.is_object()) {
      const auto found = checked.find(std::string(kDryRunArgument));
      dry_run = found != checked.end() && found->is_boolean() && found->get<bool>();
      if (!native && found != checked.end()) checked.erase(found);
    }
    invoke_checked(*tool, who, checked, std::move(answer), as_text && !dry_run);
    dispose(checked);
  };
  gate_->admit(GatedCall{caller, found.tool, std::move(arguments), found.native_dry_run}, std::move(reply),
               std::move(proceed));
}

bool wildcard_match(std::string_view pattern, std::string_view name) {
  if (pattern.empty()) return name.empty();
  if (pattern.front() == '*') {
    for (std::size_t skip = 0; skip <= name.size(); ++skip) {
      if (wildcard_match(pattern.substr(1), name.substr(skip))) return true;
    }
    return false;
  }
  return !name.empty() && pattern.front() == name.front() && wildcard_match(pattern.substr(1), name.substr(1));
}

void ToolRegistry::changed() {
  ++generation_;
  if (batch_depth_ > 0) {
    pending_change_ = true;
    return;
  }
  for (const auto& listener : listeners_) listener();
}

ToolRegistry::Batch::~Batch() {
  if (--registry_.batch_depth_ == 0 && registry_.pending_change_) {
    registry_.pending_change_ = false;
    registry_.changed();
  }
}

}  // namespace mcpud
