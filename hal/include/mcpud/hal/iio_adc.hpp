// SPDX-License-Identifier: MIT
// ADC channels through libiio: a local context (sysfs) or a remote iiod by URI.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "mcpud/hal/pins.hpp"

struct iio_context;

namespace mcpud::hal {

struct IioChannelSpec {
  std::string uri;      // "" for the local context, else e.g. "ip:192.168.1.5"
  std::string device;   // name, label or id ("iio:device0")
  std::string channel;  // e.g. "voltage0"
};

// Owns the IIO contexts (one per URI) that its channels read through; must
// outlive the channels it opened.
class IioBoard {
 public:
  IioBoard();
  ~IioBoard();
  IioBoard(const IioBoard&) = delete;
  IioBoard& operator=(const IioBoard&) = delete;

  // Errors name what exists instead (the context's devices, the device's input channels).
  HalResult<std::unique_ptr<AnalogInput>> open_channel(const IioChannelSpec& spec);

 private:
  HalResult<iio_context*> context(const std::string& uri);

  std::map<std::string, std::shared_ptr<iio_context>> contexts_;
};

}  // namespace mcpud::hal
