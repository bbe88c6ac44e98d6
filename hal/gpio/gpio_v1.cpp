// SPDX-License-Identifier: MIT
// GPIO lines through the libgpiod v1 C++ API (Debian 12, Raspberry Pi OS bookworm).
// Kept parallel to gpio_v2.cpp: same classes, same order, so one checks the other.
#include <gpiod.hpp>

#include <system_error>

#include "gpio/backend.hpp"

namespace mcpud::hal {
namespace {

HalError io_error(const std::string& what, const std::exception& e) {
  return HalError{HalError::Kind::Io, what + ": " + e.what()};
}

std::bitset<32> line_flags(bool active_low, Bias bias, Drive drive) {
  std::bitset<32> flags;
  if (active_low) flags |= gpiod::line_request::FLAG_ACTIVE_LOW;
  if (bias == Bias::Disabled) flags |= gpiod::line_request::FLAG_BIAS_DISABLE;
  if (bias == Bias::PullUp) flags |= gpiod::line_request::FLAG_BIAS_PULL_UP;
  if (bias == Bias::PullDown) flags |= gpiod::line_request::FLAG_BIAS_PULL_DOWN;
  if (drive == Drive::OpenDrain) flags |= gpiod::line_request::FLAG_OPEN_DRAIN;
  if (drive == Drive::OpenSource) flags |= gpiod::line_request::FLAG_OPEN_SOURCE;
  return flags;
}

int input_request_type(Edges edges) {
  switch (edges) {
    case Edges::None:
      return gpiod::line_request::DIRECTION_INPUT;
    case Edges::Rising:
      return gpiod::line_request::EVENT_RISING_EDGE;
    case Edges::Falling:
      return gpiod::line_request::EVENT_FALLING_EDGE;
    case Edges::Both:
      return gpiod::line_request::EVENT_BOTH_EDGES;
  }
  return gpiod::line_request::DIRECTION_INPUT;
}

// Opens the chip and takes the line at `offset`; the line keeps the chip open.
HalResult<gpiod::line> line_at(const ResolvedLine& where) {
  try {
    gpiod::chip chip(where.chip.path, gpiod::chip::OPEN_BY_PATH);
    return chip.get_line(where.offset);
  } catch (const std::exception& e) {
    return std::unexpected(io_error(where.chip.path, e));
  }
}

class LineOutput final : public DigitalOutput {
 public:
  explicit LineOutput(gpiod::line line) : line_(std::move(line)) {}
  ~LineOutput() override { line_.release(); }

  HalResult<void> write(bool level) override {
    try {
      line_.set_value(level ? 1 : 0);
      return {};
    } catch (const std::exception& e) {
      return std::unexpected(io_error("set value", e));
    }
  }
  HalResult<bool> read() override {
    try {
      return line_.get_value() != 0;
    } catch (const std::exception& e) {
      return std::unexpected(io_error("get value", e));
    }
  }

 private:
  gpiod::line line_;
};

class LineInput final : public GpioInput {
 public:
  LineInput(gpiod::line line, const InputSpec& spec)
      : line_(std::move(line)), edges_(spec.edges), debouncer_(std::int64_t{spec.debounce_us} * 1000) {}
  ~LineInput() override { line_.release(); }

  HalResult<bool> read() override {
    try {
      return line_.get_value() != 0;
    } catch (const std::exception& e) {
      return std::unexpected(io_error("get value", e));
    }
  }
  int event_fd() const override { return edges_ == Edges::None ? -1 : line_.event_get_fd(); }

  // Called when event_fd() is readable, so the read does not block.
  HalResult<std::vector<EdgeEvent>> read_events() override {
    std::vector<EdgeEvent> events;
    try {
      for (const auto& e : line_.event_read_multiple()) {
        const EdgeEvent event{e.event_type == gpiod::line_event::RISING_EDGE, e.timestamp.count()};
        if (debouncer_.keep(event)) events.push_back(event);
      }
    } catch (const std::exception& e) {
      return std::unexpected(io_error("read events", e));
    }
    return events;
  }

 private:
  gpiod::line line_;
  Edges edges_;
  EdgeDebouncer debouncer_;  // v1 has no kernel debounce
};

}  // namespace

std::string_view gpio_backend_name() { return "libgpiod v1"; }

HalResult<ChipInfo> detail::probe_chip(const std::string& path) {
  try {
    gpiod::chip chip(path, gpiod::chip::OPEN_BY_PATH);
    ChipInfo info{path, chip.name(), chip.label(), {}};
    for (unsigned i = 0; i < chip.num_lines(); ++i) info.line_names.push_back(chip.get_line(i).name());
    return info;
  } catch (const std::system_error& e) {
    return std::unexpected(HalError{HalError::Kind::Io, e.code().message()});
  } catch (const std::exception& e) {
    return std::unexpected(io_error(path, e));
  }
}

HalResult<std::unique_ptr<DigitalOutput>> request_output(const ResolvedLine& where, const OutputSpec& spec,
                                                         const std::string& consumer) {
  auto line = line_at(where);
  if (!line) return std::unexpected(line.error());
  try {
    line->request(
        {consumer, gpiod::line_request::DIRECTION_OUTPUT, line_flags(spec.active_low, Bias::AsIs, spec.drive)},
        spec.initial ? 1 : 0);
  } catch (const std::exception& e) {
    return std::unexpected(io_error("request " + where.chip.name + " line " + std::to_string(where.offset), e));
  }
  return std::make_unique<LineOutput>(std::move(*line));
}

HalResult<std::unique_ptr<GpioInput>> request_input(const ResolvedLine& where, const InputSpec& spec,
                                                    const std::string& consumer) {
  auto line = line_at(where);
  if (!line) return std::unexpected(line.error());
  try {
    line->request({consumer, input_request_type(spec.edges), line_flags(spec.active_low, spec.bias, Drive::PushPull)});
  } catch (const std::exception& e) {
    return std::unexpected(io_error("request " + where.chip.name + " line " + std::to_string(where.offset), e));
  }
  return std::make_unique<LineInput>(std::move(*line), spec);
}

}  // namespace mcpud::hal
