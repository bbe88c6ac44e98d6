// SPDX-License-Identifier: MIT
// The one tool registry: every back room adds its tools here, every front door
// lists and calls them through it. Single-threaded (event loop only).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mcpud/core/call_gate.hpp"
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
  // With a gate set, an actuating tool (is_actuating) that does not declare
  // `dry_run` gets it in its input schema: the gate answers it for the tool.
  Result<void> add(Tool tool);
  // Removes every tool registered by `owner`; returns how many were removed.
  std::size_t remove_owner(std::string_view owner);

  ToolRegistry();
  ~ToolRegistry();
  ToolRegistry(const ToolRegistry&) = delete;
  ToolRegistry& operator=(const ToolRegistry&) = delete;

  // nullptr when no tool has that name.
  std::shared_ptr<const Tool> find(std::string_view name) const;
  bool contains(std::string_view name) const { return entry(name) != nullptr; }
  // All tools in registration order.
  const std::vector<std::shared_ptr<const Tool>>& tools() const { return tools_; }
  std::size_t size() const { return tools_.size(); }
  // Changes with every change of the tool set, at once (also inside a Batch):
  // what is derived from tools() can be cached for as long as it stays.
  std::uint64_t generation() const { return generation_; }

  // The one way every front door calls a tool. Refuses a user-only name to a
  // caller without user_tools (NOT_AUTHORIZED), validates `arguments` against the
  // tool's schema (filling defaults), then invokes it; an exception a tool
  // throws becomes an internal error. An unknown tool gives -32601, invalid
  // arguments -32602 naming the field as "<arguments_root>.<field>". `reply` is
  // called exactly once.
  void call(const Caller& caller, std::string_view name, nlohmann::json&& arguments, ToolReply&& reply,
            std::string_view arguments_root = "params") const;

  // Names that make a tool user-only besides its own annotation ([mcp]
  // user_only_tools; * matches any run of characters). Such tools are listed
  // only to callers that ask for them, and called only by callers with user_tools.
  void set_user_only_names(std::vector<std::string> patterns) { user_only_names_ = std::move(patterns); }
  bool is_user_only(std::string_view name) const;
  bool is_user_only(const Tool& tool) const { return tool.annotations.user_only || is_user_only(tool.name); }
  // Whether calling `name` needs user_tools: its tool is user-only, or, with no
  // tool of that name, the name is.
  bool requires_user_tools(std::string_view name) const;

  // Why tools matching `pattern` (* matches any run of characters) are not
  // there, e.g. "no I2C bus is configured ([[i2c.buses]])": a call of such a
  // missing tool is still -32601, with the reason in its message. An empty
  // reason forgets the pattern.
  void set_absence_reason(std::string_view pattern, std::string reason);

  // Borrows `gate` (nullable: none), which every call of an actuating tool
  // passes after its arguments were checked; it must outlive the registry's
  // use. Set it before adding tools, so that they all get `dry_run`.
  void set_gate(CallGate* gate) { gate_ = gate; }

  // Tells `observer` of every call that finishes while it wants_calls(); the
  // registry keeps a weak reference, so a late reply after it is gone is fine.
  void observe_calls(std::weak_ptr<CallObserver> observer) { observer_ = std::move(observer); }
  // Whether calls are observed now.
  bool calls_observed() const;

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
    bool native_dry_run = false;  // the tool declared dry_run itself
  };
  // A call of an actuating tool, through the gate.
  void call_gated(const Caller& caller, const Entry& found, nlohmann::json&& arguments, ToolReply&& reply,
                  std::string_view arguments_root, bool as_text) const;
  void changed();
  const Entry* entry(std::string_view name) const;
  // "Method not found: <name>", with the absence reason when one matches.
  std::string not_found_message(std::string_view name) const;
  // `reply` wrapped so the observer hears of the call when it answers.
  ToolReply observed(const Caller& caller, std::string_view name, const nlohmann::json& arguments,
                     ToolReply reply) const;

  std::vector<std::shared_ptr<const Tool>> tools_;
  std::unordered_map<std::string, Entry, StringHash, std::equal_to<>> by_name_;
  std::vector<ChangeListener> listeners_;
  std::vector<std::string> user_only_names_;
  std::vector<std::pair<std::string, std::string>> absence_reasons_;  // pattern, reason

  std::weak_ptr<CallObserver> observer_;
  CallGate* gate_ = nullptr;
  int batch_depth_ = 0;
  bool pending_change_ = false;
  std::uint64_t generation_ = 0;
};

// Whether `name` matches `pattern`, where * matches any run of characters.
bool wildcard_match(std::string_view pattern, std::string_view name);

// Runs `work` with `reply`; when `work` throws before replying, replies with an
// internal error instead, so an exception never escapes into the event loop and
// every request is answered. A template, so that `work` costs no allocation
// on the path of every call.
template <class Work>
void guarded(ToolReply reply, Work&& work) {
  // Shared with the reply the work holds, which may answer long after this returns.
  struct State {
    ToolReply reply;
    bool replied = false;
  };
  auto state = std::make_shared<State>(State{std::move(reply)});
  const auto answer = [state](ToolResult&& result) {
    state->replied = true;
    state->reply(std::move(result));
  };
  try {
    work(ToolReply(answer));
  } catch (const std::exception& e) {
    if (!state->replied) answer(std::unexpected(Error::internal(std::string("Internal error: ") + e.what())));
  }
}

}  // namespace mcpud
