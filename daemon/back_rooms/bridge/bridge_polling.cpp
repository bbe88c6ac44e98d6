// SPDX-License-Identifier: MIT
// A bridged device's pins, polled tools and buffer drains.
#include "bridge_polling.hpp"

#include <algorithm>
#include <chrono>

#include "mcpud/core/log.hpp"

namespace mcpud::bridge {
namespace {

using nlohmann::json;

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// mcpud keeps a longer history than the device's ring.
SamplingOptions history_options(const DevicePin& pin) {
  SamplingOptions options;
  options.interval_ms = pin.interval_ms;
  options.buffer_size = std::clamp<std::size_t>(pin.buffer_size * 10, 100, 100'000);
  options.summary = true;
  return options;
}

bool same_sampling(const pins::BoardPin& board, const DevicePin& pin) {
  if (!board.sampler) return !pin.buffer;
  return pin.buffer && board.sampler->options().interval_ms == pin.interval_ms &&
         board.sampler->options().buffer_size == history_options(pin).buffer_size;
}

}  // namespace

void McuBridge::adopt_pins(const DeviceManifest& manifest) {
  for (const auto& pin : manifest.pins) {
    const auto name = config_.id + "__" + pin.name;
    auto& remote = pins_[name];
    const bool keep = remote.board && remote.board->number() == pin.pin && same_sampling(*remote.board, pin);
    if (!keep) {
      remote.board = std::make_unique<pins::BoardPin>();
      remote.board->config.name = name;
      remote.board->config.pin = pin.pin;
      remote.board->device = config_.id;
      if (pin.buffer) {
        remote.board->sampler = std::make_unique<PinSampler>(history_options(pin));
        remote.drain = std::make_unique<BufferDrain>(pin.pin, pin.interval_ms, pin.buffer_size);
      } else {
        remote.drain.reset();
      }
    }
    remote.board->config.description = pin.description;
    hal::parse_pin_type(pin.type, remote.board->config.type);
    remote.type = pin.type;
    present_.push_back(name);
    if (remote.drain) {
      drains_.push_back(std::make_unique<Drain>(
          Drain{&remote, drain_period_ms(pin.interval_ms, pin.buffer_size), boost::asio::steady_timer(io_), false}));
    }
  }
}

void McuBridge::for_each_pin(const std::function<void(const pins::BoardPin&)>& visit) const {
  for (const auto& name : present_) visit(*pins_.at(name).board);
}

void McuBridge::note_reading(const json& result) {
  const auto number = result.is_object() ? result.find("pin") : result.end();
  if (number == result.end() || !number->is_number_integer()) return;
  for (const auto& name : present_) {
    auto& pin = *pins_.at(name).board;
    if (pin.number() != number->get<int>()) continue;
    pin.reading = json::object();
    for (const auto* key : {"value", "duty", "volts"}) {
      if (result.contains(key)) pin.reading[key] = result[key];
    }
    if (!events_.wanted(EventKind::PinChanged)) return;  // built only for a subscriber that wants it
    json data = pin.reading;
    data["pin"] = pin.number();
    data["name"] = pin.name();
    data["device"] = config_.id;
    events_.publish({EventKind::PinChanged, pin.name(), std::move(data), nullptr});
    return;
  }
}

void McuBridge::announce_pins_changed() { events_.publish({EventKind::ResourcesChanged, owner(), nullptr, nullptr}); }

void McuBridge::start_polling(const DeviceManifest& manifest) {
  for (const auto& tool : manifest.tools) {
    if (!tool.polling_ms) continue;
    pollers_.push_back(std::make_unique<Poller>(
        Poller{tool.name, config_.id + "__" + tool.name, *tool.polling_ms, boost::asio::steady_timer(io_), false}));
  }
  for (std::size_t i = 0; i < pollers_.size(); ++i) {
    poll(i);
    schedule_poll(i);
  }
  for (std::size_t i = 0; i < drains_.size(); ++i) {
    drain(i);
    schedule_drain(i);
  }
}

void McuBridge::repeat(boost::asio::steady_timer& timer, std::uint32_t period_ms,
                       const std::function<bool(McuBridge&)>& tick) {
  timer.expires_after(std::chrono::milliseconds(period_ms));
  // The timer belongs to this connection's tasks: the generation check comes first.
  timer.async_wait(
      [weak = weak_from_this(), generation = generation_, &timer, period_ms, tick](boost::system::error_code ec) {
        auto self = weak.lock();
        if (ec || !self || generation != self->generation_) return;
        if (tick(*self)) self->repeat(timer, period_ms, tick);
      });
}

void McuBridge::schedule_poll(std::size_t index) {
  repeat(pollers_[index]->timer, pollers_[index]->interval_ms, [index](McuBridge& self) {
    self.poll(index);
    return true;
  });
}

void McuBridge::invoke_unless_busy(bool& in_flight, const std::string& method, json arguments,
                                   std::function<void(McuBridge&, ToolResult)> done) {
  if (in_flight) return;
  in_flight = true;
  invoke(method, std::move(arguments),
         [weak = weak_from_this(), generation = generation_, &in_flight, done = std::move(done)](ToolResult result) {
           auto self = weak.lock();
           if (!self || generation != self->generation_) return;
           in_flight = false;
           done(*self, std::move(result));
         });
}

void McuBridge::poll(std::size_t index) {
  auto& poller = *pollers_[index];
  invoke_unless_busy(poller.in_flight, poller.method, json::object(), [index](McuBridge& self, ToolResult result) {
    const auto& name = self.pollers_[index]->name;
    if (!result) {
      log::debug("bridge", name, ": poll failed: ", result.error().message);
      return;
    }
    self.polled_[name] = *result;
    self.events_.publish({EventKind::ToolPolled, name, std::move(*result)});
  });
}

void McuBridge::schedule_drain(std::size_t index) {
  repeat(drains_[index]->timer, drains_[index]->period_ms, [index](McuBridge& self) {
    if (self.drains_[index]->pin->drain->unavailable()) return false;  // the device has no buffer after all
    self.drain(index);
    return true;
  });
}

void McuBridge::drain(std::size_t index) {
  auto& task = *drains_[index];
  invoke_unless_busy(
      task.in_flight, "get_pin_buffer", task.pin->drain->request(), [index](McuBridge& self, ToolResult reply) {
        auto& task = *self.drains_[index];
        if (!reply) {
          log::debug("bridge", task.pin->board->name(), ": buffer drain failed: ", reply.error().message);
          return;
        }
        auto samples = task.pin->drain->accept(*reply, now_ms());
        if (!samples) {
          log::debug("bridge", task.pin->board->name(), ": ", samples.error().message);
          return;
        }
        auto& pin = *task.pin;
        for (const auto& sample : *samples) {
          pin.board->sampler->add(sample.value, sample.timestamp_ms);
          pin.push.add(*pin.board, sample.value, sample.timestamp_ms, self.events_);
        }
      });
}

}  // namespace mcpud::bridge
