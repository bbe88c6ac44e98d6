// SPDX-License-Identifier: MIT
// The periodic work a bridge does while its device is connected: calling the
// tools the device asks to be polled, and draining buffered pins. Internal to
// daemon/bridge.
#pragma once

#include <cstdint>
#include <string>

#include <boost/asio/steady_timer.hpp>

#include "buffer_drain.hpp"
#include "mcu_bridge.hpp"

namespace mcpud::bridge {

struct McuBridge::Poller {
  std::string method;  // the device's name for the tool
  std::string name;    // the prefixed name clients see
  std::uint32_t interval_ms;
  boost::asio::steady_timer timer;
  bool in_flight = false;  // calls never overlap: a tick during a call is skipped
};

struct McuBridge::Drain {
  RemotePin* pin;  // has a sampler and a drain
  std::uint32_t period_ms;
  boost::asio::steady_timer timer;
  bool in_flight = false;
};

}  // namespace mcpud::bridge
