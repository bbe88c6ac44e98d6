// SPDX-License-Identifier: MIT
// Samples every input pin that has sampling configured, on its own interval,
// from the event loop (one timer per pin; no thread).
#pragma once

#include <memory>

namespace boost::asio {
class io_context;
}

namespace mcpud::tools {

class PinTable;

class PinSampling {
 public:
  // Borrows both; `pins` must outlive this object.
  PinSampling(boost::asio::io_context& io, PinTable& pins);
  ~PinSampling();
  PinSampling(const PinSampling&) = delete;
  PinSampling& operator=(const PinSampling&) = delete;

  // Takes a first sample of every sampled pin and starts the timers.
  void start();
  // Cancels every timer; safe to call twice.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mcpud::tools
