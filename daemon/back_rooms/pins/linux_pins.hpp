// SPDX-License-Identifier: MIT
// Pins on a real Linux board: GPIO lines (libgpiod), ADC channels (libiio),
// PWM channels and sensors (sysfs). Used by boards "raspberrypi" and "linux".
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <string>

#include "board_kinds.hpp"
#include "mcpud/hal/iio_adc.hpp"

namespace mcpud::pins {

class LinuxPinFactory final : public PinFactory {
 public:
  // `consumer` labels the requested GPIO lines (gpioinfo shows it).
  LinuxPinFactory(std::string consumer, std::string pwm_sysfs_root, std::string sysfs_root);
  Result<void> attach(BoardPin& pin) override;

 private:
  Result<void> attach_gpio(BoardPin& pin);

  std::string consumer_;
  std::string pwm_sysfs_root_;
  std::string sysfs_root_;  // sensors
  hal::IioBoard iio_;       // channels keep their context alive on their own
};

}  // namespace mcpud::pins
