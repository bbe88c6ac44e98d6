// SPDX-License-Identifier: MIT
// The one tool registry: every back room adds its tools here, every front door
// lists and calls them through it. Single-threaded (event loop only).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "mcpud/core/call_observer.hpp"
#include "mcpud/core/tool.hpp"

namespace mcpud {

namespace schema {
class CompiledSchema;
}

class ToolRegistry {
 public:
  using ChangeListener = std::function<void()>;

  // Adds a tool. Fails (invalid params) when the name is empty or already taken.
  Result<void> add(Tool tool);
  // Removes every tool registered by `owner`; returns how many were removed.
  std::size_t remove_owner(std::string_view owner);

  ToolRegistry();
  ~ToolRegistry();
  ToolRegistry(const ToolRegistry&) = delete;
  ToolRegistry& operator=(const ToolRegistry&) = delete;

  // nullptr when no tool has that name.
  std::shared_ptr<const Tool> find(std::string_view name) const;
  // All tools in registration order.
  const std::vector<std::shared_ptr<const Tool>>& tools() const { return tools_; }
  std::size_t size() const { return tools_.size(); }

  // Validates `arguments` against the tool's schema (filling defaults), then
  // invokes it. An unknown tool gives -32601, invalid arguments -32602 naming the
  // field as "<arguments_root>.<field>". `reply` is called exactly once.
  void call(std::string_view name, nlohmann::json arguments, ToolReply reply,
            std::string_view arguments_root = "params") const;

  // Tells `observer` of every call that finishes while it wants_calls(); the
  // registry keeps a weak reference, so a late reply after it is gone is fine.
  void observe_calls(std::weak_ptr<CallObserver> observer) { observer_ = std::move(observer); }
  // Whether calls are observed now (front doors name their caller only then).
  bool calls_observed() const;

  // Names the caller of every call made while the scope lives; front doors
  // open one around dispatching a client's request. Scopes nest.
  class CallerScope {
   public:
    CallerScope(ToolRegistry& registry, const Caller& caller)
        : registry_(registry), previous_(registry.caller_) { registry_.caller_ = &caller; }
    ~CallerScope() { registry_.caller_ = previous_; }
    CallerScope(const CallerScope&) = delete;
    CallerScope& operator=(const CallerScope&) = delete;

   private:
    ToolRegistry& registry_;
    const Caller* previous_;
  };

  // Listeners run after every change of the tool set (add, remove). Adding many
  // tools inside one `Batch` notifies once at its end.
  void on_change(ChangeListener listener) { listeners_.push_back(std::move(listener)); }

  class Batch {
   public:
    explicit Batch(ToolRegistry& registry) : registry_(registry) { ++registry_.batch_depth_; }
    ~Batch();
    Batch(const Batch&) = delete;
    Batch& operator=(const Batch&) = delete;

   private:
    ToolRegistry& registry_;
  };

 private:
  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // A tool with its input schema digested once, at registration.
  struct Entry {
    std::shared_ptr<const Tool> tool;
    std::shared_ptr<const schema::CompiledSchema> schema;
  };
  void changed();
  const Entry* entry(std::string_view name) const;
  // `reply` wrapped so the observer hears of the call when it answers.
  ToolReply observed(std::string_view name, const nlohmann::json& arguments, ToolReply reply) const;

  std::vector<std::shared_ptr<const Tool>> tools_;
  std::unordered_map<std::string, Entry, StringHash, std::equal_to<>> by_name_;
  std::vector<ChangeListener> listeners_;
  std::weak_ptr<CallObserver> observer_;
  const Caller* caller_ = nullptr;  // set by the innermost CallerScope
  int batch_depth_ = 0;
  bool pending_change_ = false;
};

}  // namespace mcpud
