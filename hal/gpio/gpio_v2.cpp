// SPDX-License-Identifier: MIT
// GPIO lines through the libgpiod v2 C++ API (Debian 13, Raspberry Pi OS trixie).
// Kept parallel to gpio_v1.cpp: same classes, same order, so one checks the other.
// Differences: one line_request per line, kernel debounce, an edge event buffer.
#include <gpiod.hpp>

#include <system_error>

#include "gpio/backend.hpp"

namespace mcpud::hal {
namespace {

constexpr std::size_t kEventBufferCapacity = 64;

HalError io_error(const std::string& what, const std::exception& e) {
  return HalError{HalError::Kind::Io, what + ": " + e.what()};
}

gpiod::line::bias line_bias(Bias bias) {
  switch (bias) {
    case Bias::AsIs:
      return gpiod::line::bias::AS_IS;
    case Bias::Disabled:
      return gpiod::line::bias::DISABLED;
    case Bias::PullUp:
      return gpiod::line::bias::PULL_UP;
    case Bias::PullDown:
      return gpiod::line::bias::PULL_DOWN;
  }
  return gpiod::line::bias::AS_IS;
}

gpiod::line::drive line_drive(Drive drive) {
  switch (drive) {
    case Drive::PushPull:
      return gpiod::line::drive::PUSH_PULL;
    case Drive::OpenDrain:
      return gpiod::line::drive::OPEN_DRAIN;
    case Drive::OpenSource:
      return gpiod::line::drive::OPEN_SOURCE;
  }
  return gpiod::line::drive::PUSH_PULL;
}

gpiod::line::edge line_edge(Edges edges) {
  switch (edges) {
    case Edges::None:
      return gpiod::line::edge::NONE;
    case Edges::Rising:
      return gpiod::line::edge::RISING;
    case Edges::Falling:
      return gpiod::line::edge::FALLING;
    case Edges::Both:
      return gpiod::line::edge::BOTH;
  }
  return gpiod::line::edge::NONE;
}

gpiod::line::value line_value(bool level) { return level ? gpiod::line::value::ACTIVE : gpiod::line::value::INACTIVE; }

// Requests one line of the chip with `settings`; the request keeps the line held.
HalResult<gpiod::line_request> request_line(const ResolvedLine& where, const gpiod::line_settings& settings,
                                            const std::string& consumer) {
  try {
    gpiod::chip chip(where.chip.path);
    return chip.prepare_request()
        .set_consumer(consumer)
        .set_event_buffer_size(kEventBufferCapacity)
        .add_line_settings(gpiod::line::offset(where.offset), settings)
        .do_request();
  } catch (const std::exception& e) {
    return std::unexpected(io_error("request " + where.chip.name + " line " + std::to_string(where.offset), e));
  }
}

class LineOutput final : public DigitalOutput {
 public:
  LineOutput(gpiod::line_request request, unsigned offset) : request_(std::move(request)), offset_(offset) {}
  ~LineOutput() override { request_.release(); }

  HalResult<void> write(bool level) override {
    try {
      request_.set_value(offset_, line_value(level));
      return {};
    } catch (const std::exception& e) {
      return std::unexpected(io_error("set value", e));
    }
  }
  HalResult<bool> read() override {
    try {
      return request_.get_value(offset_) == gpiod::line::value::ACTIVE;
    } catch (const std::exception& e) {
      return std::unexpected(io_error("get value", e));
    }
  }

 private:
  gpiod::line_request request_;
  gpiod::line::offset offset_;
};

class LineInput final : public GpioInput {
 public:
  LineInput(gpiod::line_request request, unsigned offset, const InputSpec& spec)
      : request_(std::move(request)), offset_(offset), edges_(spec.edges), buffer_(kEventBufferCapacity) {}
  ~LineInput() override { request_.release(); }

  HalResult<bool> read() override {
    try {
      return request_.get_value(offset_) == gpiod::line::value::ACTIVE;
    } catch (const std::exception& e) {
      return std::unexpected(io_error("get value", e));
    }
  }
  int event_fd() const override { return edges_ == Edges::None ? -1 : request_.fd(); }

  // Called when event_fd() is readable, so the read does not block.
  HalResult<std::vector<EdgeEvent>> read_events() override {
    std::vector<EdgeEvent> events;
    try {
      request_.read_edge_events(buffer_);
      for (const auto& e : buffer_) {
        events.push_back(
            {e.type() == gpiod::edge_event::event_type::RISING_EDGE, static_cast<std::int64_t>(e.timestamp_ns().ns())});
      }
    } catch (const std::exception& e) {
      return std::unexpected(io_error("read events", e));
    }
    return events;
  }

 private:
  gpiod::line_request request_;
  gpiod::line::offset offset_;
  Edges edges_;
  gpiod::edge_event_buffer buffer_;  // v2 debounces in the kernel
};

}  // namespace

std::string_view gpio_backend_name() { return "libgpiod v2"; }

HalResult<ChipInfo> detail::probe_chip(const std::string& path) {
  try {
    gpiod::chip chip(path);
    const auto info = chip.get_info();
    ChipInfo result{path, info.name(), info.label(), {}};
    for (std::size_t i = 0; i < info.num_lines(); ++i) {
      result.line_names.push_back(chip.get_line_info(gpiod::line::offset(static_cast<unsigned>(i))).name());
    }
    return result;
  } catch (const std::system_error& e) {
    return std::unexpected(HalError{HalError::Kind::Io, e.code().message()});
  } catch (const std::exception& e) {
    return std::unexpected(io_error(path, e));
  }
}

HalResult<std::unique_ptr<DigitalOutput>> request_output(const ResolvedLine& where, const OutputSpec& spec,
                                                         const std::string& consumer) {
  gpiod::line_settings settings;
  settings.set_direction(gpiod::line::direction::OUTPUT)
      .set_active_low(spec.active_low)
      .set_drive(line_drive(spec.drive))
      .set_output_value(line_value(spec.initial));
  auto request = request_line(where, settings, consumer);
  if (!request) return std::unexpected(request.error());
  return std::make_unique<LineOutput>(std::move(*request), where.offset);
}

HalResult<std::unique_ptr<GpioInput>> request_input(const ResolvedLine& where, const InputSpec& spec,
                                                    const std::string& consumer) {
  gpiod::line_settings settings;
  settings.set_direction(gpiod::line::direction::INPUT)
      .set_active_low(spec.active_low)
      .set_bias(line_bias(spec.bias))
      .set_edge_detection(line_edge(spec.edges))
      .set_debounce_period(std::chrono::microseconds(spec.debounce_us))
      .set_event_clock(gpiod::line::clock::MONOTONIC);
  auto request = request_line(where, settings, consumer);
  if (!request) return std::unexpected(request.error());
  return std::make_unique<LineInput>(std::move(*request), where.offset, spec);
}

}  // namespace mcpud::hal
