// SPDX-License-Identifier: MIT
// Gives the heap's free pages back to the system once a burst of requests is
// over, so RSS after a load comes back near where it was. Event loop only.
#pragma once

#include <chrono>
#include <cstddef>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "mcpud/core/json_rpc.hpp"

namespace mcpud::app {

// A burst of replies and connections leaves the heap full of free chunks between
// the ones still in use: glibc returns only the free top (M_TRIM_THRESHOLD), so
// the pages in between stay resident. This handler passes every request on to
// the dispatcher and notes that the daemon is busy; once a whole `quiet` period
// goes by without a request or a client coming or going, it calls malloc_trim(0)
// if the heap holds more than kWorthTrimming free below its top. Its timer runs
// only after activity: an idle daemon is never woken.
class HeapTrimmer final : public rpc::MethodHandler {
 public:
  // Free bytes (beside the top, which glibc trims itself) worth a trim.
  static constexpr std::size_t kWorthTrimming = 256 * 1024;

  // Borrows `io` and `inner`, which must outlive this handler.
  HeapTrimmer(boost::asio::io_context& io, rpc::MethodHandler& inner,
              std::chrono::milliseconds quiet = std::chrono::seconds(1))
      : inner_(inner), timer_(io), quiet_(quiet) {}

  void handle(rpc::Client& client, std::string_view method, nlohmann::json&& params, ToolReply&& reply) override {
    note_activity();
    inner_.handle(client, method, std::move(params), std::move(reply));
  }
  ErrorCodes error_codes(std::string_view method) const override { return inner_.error_codes(method); }

  // Something that takes or frees memory happened (a request, a client came or went).
  void note_activity();
  // Cancels the timer for good (shutdown: the loop must be free to end).
  void stop();

 private:
  void arm();
  void on_quiet_check();

  rpc::MethodHandler& inner_;
  boost::asio::steady_timer timer_;
  std::chrono::milliseconds quiet_;
  bool armed_ = false;
  bool busy_ = false;  // activity since the timer was armed
  bool stopped_ = false;
};

}  // namespace mcpud::app
