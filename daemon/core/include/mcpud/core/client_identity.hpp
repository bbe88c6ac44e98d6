// SPDX-License-Identifier: MIT
// Who a client is, as far as owning things goes: every connection, HTTP session
// and uplink has one identity, and what it opens (a serial session) remembers
// it. Identities are compared by address, so a new connection is someone new
// even from the same peer address. Whoever keeps something a client owns can ask
// to hear when that client goes away.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <functional>
#include <map>

namespace mcpud {

class ClientIdentity {
 public:
  // How long an identity lives: a connection, HTTP session or uplink; or one
  // stateless request (MCP 2026-07-28 over HTTP), whose end says nothing about
  // whether its client is still there.
  enum class Lifetime { Client, OneRequest };

  explicit ClientIdentity(Lifetime lifetime = Lifetime::Client) : lifetime_(lifetime) {}
  // Runs what when_gone() registered.
  ~ClientIdentity();
  ClientIdentity(const ClientIdentity&) = delete;
  ClientIdentity& operator=(const ClientIdentity&) = delete;

  // Runs `then` once, when this identity ends (its client went away). One hook
  // per `keeper`: a second call with the same keeper replaces the first, so a
  // keeper that registers on every use holds one hook, not one per use. `then`
  // runs inside the destructor: it should only note the departure (e.g. post
  // the clean-up to the event loop), not call back into the client.
  void when_gone(const void* keeper, std::function<void()> then) { on_gone_[keeper] = std::move(then); }

  bool lasts_one_request() const { return lifetime_ == Lifetime::OneRequest; }

 private:
  Lifetime lifetime_;
  std::map<const void*, std::function<void()>> on_gone_;
};

}  // namespace mcpud
