// SPDX-License-Identifier: MIT
// Connection life cycle, discovery and tool registration of one bridged device.
#include "mcu_bridge.hpp"

#include "bridge_polling.hpp"

#include "mcpud/core/log.hpp"

namespace mcpud::bridge {

using nlohmann::json;

namespace {
constexpr std::uint32_t kFirstRetryMs = 250;
// A device whose list_tools reply is over the line limit sends the same reply
// until its firmware changes: it is asked again at most this often (a replug,
// seen by udev, retries at once).
constexpr std::uint32_t kTooLargeRetryMaxMs = 60'000;
// Refusals logged per discovery; the rest are counted.
constexpr std::size_t kLoggedRefusals = 16;
// Added to a retry hint: what discovery takes besides the board's reset wait.
constexpr std::uint32_t kDiscoveryAllowanceMs = 100;

std::int64_t unix_ms(std::chrono::steady_clock::time_point when) {
  const auto wall = std::chrono::system_clock::now() + (when - std::chrono::steady_clock::now());
  return std::chrono::duration_cast<std::chrono::milliseconds>(wall.time_since_epoch()).count();
}

// The device's pin tools whose results say a pin's value: kept as its reading.
bool reads_or_drives_pin(std::string_view method) {
  return method == "gpio_write" || method == "gpio_read" || method == "pwm_write" || method == "adc_read";
}
}  // namespace

McuBridge::McuBridge(boost::asio::io_context& io, BridgeConfig config, ToolRegistry& registry, EventHub& events)
    : io_(io),
      config_(std::move(config)),
      registry_(registry),
      events_(events),
      timer_(io),
      redial_(io, std::chrono::milliseconds(kFirstRetryMs), std::chrono::milliseconds(config_.retry_max_ms)),
      grace_timer_(io) {}

McuBridge::~McuBridge() { stop(); }

void McuBridge::start() {
  if (state_ != State::Stopped) return;
  connect();
}

void McuBridge::stop() {
  if (state_ == State::Stopped) return;
  state_ = State::Stopped;
  ++generation_;
  timer_.cancel();
  redial_.cancel();
  end_grace();
  go_away();
  registry_.remove_owner(owner());
  events_.touch_status("bridges");
}

void McuBridge::retry_now() {
  if (state_ != State::Waiting) return;
  redial_.cancel();
  connect();
}

void McuBridge::connect() {
  state_ = State::Connecting;
  const auto generation = ++generation_;
  auto weak = weak_from_this();
  if (!config_.port.empty()) {
    on_stream(generation, open_serial(io_, config_.port, config_.baud));
    return;
  }
  connect_tcp(io_, config_.tcp, config_.timeout_ms, [weak, generation](Result<std::unique_ptr<LinkStream>> stream) {
    if (auto self = weak.lock()) self->on_stream(generation, std::move(stream));
  });
}

void McuBridge::on_stream(std::uint64_t generation, Result<std::unique_ptr<LinkStream>> stream) {
  if (generation != generation_) return;
  if (!stream) return fail(generation, stream.error());
  state_ = State::Handshaking;
  auto weak = weak_from_this();
  LinkOptions options{config_.id, config_.timeout_ms, config_.max_in_flight};
  link_ = std::make_shared<McuLink>(io_, std::move(*stream), options, [weak, generation](const Error& reason) {
    if (auto self = weak.lock()) self->fail(generation, reason);
  });
  link_->start();
  // Opening the port resets Arduino-style boards (DTR): give the firmware time to boot.
  timer_.expires_after(std::chrono::milliseconds(config_.reset_wait_ms));
  timer_.async_wait([weak, generation](boost::system::error_code ec) {
    auto self = weak.lock();
    if (!ec && self && generation == self->generation_) self->handshake(generation);
  });
}

void McuBridge::handshake(std::uint64_t generation) {
  auto weak = weak_from_this();
  link_->call("get_info", json(), [weak, generation](ToolResult info) {
    auto self = weak.lock();
    if (!self || generation != self->generation_) return;
    if (!info) return self->fail(generation, info.error());
    // Small boards ("low" or "conservative" memory) lose bytes when two requests arrive back to back.
    const auto profile = info->is_object() ? info->value("memory_profile", json("rich")) : json("rich");
    self->link_->set_one_at_a_time(profile.is_string() && profile != "rich");
    self->link_->call("list_tools", json(), [weak, generation, info = *info](ToolResult listing) {
      auto self = weak.lock();
      if (!self || generation != self->generation_) return;
      if (!listing) {
        auto reason = listing.error();
        reason.message = "list_tools: " + reason.message;
        if (reason.name == domain_error_name(DomainError::ReplyTooLarge)) {
          // The same reply would come again at once: ask less often until it fits.
          reason.message += "; asking again at most every " + std::to_string(kTooLargeRetryMaxMs / 1000) + " s";
          self->redial_.set_ceiling(
              std::chrono::milliseconds(std::max(self->config_.retry_max_ms, kTooLargeRetryMaxMs)));
        }
        return self->fail(generation, reason);
      }
      self->on_manifest(generation, info, *listing);
    });
  });
}

void McuBridge::on_manifest(std::uint64_t generation, const json& info, const json& listing) {
  auto manifest = read_manifest(listing, config_.id + "__");
  if (!manifest) return fail(generation, manifest.error());
  for (const auto& why : manifest->skipped) log::warn("bridge", config_.id, ": skipped ", why);
  info_ = info;
  state_ = State::Ready;
  redial_.connected();
  redial_.set_ceiling(std::chrono::milliseconds(config_.retry_max_ms));
  last_failure_.clear();
  end_grace();
  adopt_pins(*manifest);
  register_tools(*manifest);
  start_polling(*manifest);
  if (!present_.empty()) announce_pins_changed();
  events_.touch_status("bridges");
  log::info("bridge", config_.id, ": connected to '",
            info.value("device", json("?")).is_string() ? info.value("device", "?") : "?", "' on ",
            config_.port.empty() ? config_.tcp : config_.port, ": ", manifest->tools.size(), " tools, ",
            manifest->pins.size(), " pins");
}

void McuBridge::fail(std::uint64_t generation, const Error& reason) {
  if (generation != generation_ || state_ == State::Stopped || state_ == State::Waiting) return;
  const bool was_ready = state_ == State::Ready;
  const LinkStats stats = link_ ? link_->stats() : LinkStats{};
  ++generation_;
  go_away();
  if (was_ready && config_.replug_grace_ms > 0) start_grace();
  if (!grace_until_) registry_.remove_owner(owner());
  if (was_ready) {
    const std::string tools = grace_until_ ? "its tools answer DEVICE_DISCONNECTED for up to " +
                                                 std::to_string(config_.replug_grace_ms) + " ms, then go"
                                           : "its tools are removed until it is back";
    log::warn("bridge", config_.id, ": device lost (", reason.message, "); ", tools, " (", stats.noise_lines,
              " non-JSON lines ignored, ", stats.unmatched, " unmatched replies, ", stats.resends, " requests resent, ",
              stats.overflows, " over-long lines)");
  } else if (reason.message != last_failure_) {
    log::warn("bridge", config_.id, ": cannot connect: ", reason.message, "; retrying");
  }
  last_failure_ = reason.message;
  schedule_retry();
  events_.touch_status("bridges");  // offline, and when it tries again
}

// Removes what the device contributed but its tools, and fails its calls in flight.
void McuBridge::go_away() {
  pollers_.clear();
  drains_.clear();
  const bool had_pins = !present_.empty();
  for (const auto& name : present_) pins_.at(name).board->reading = nullptr;  // a device may restart: outputs reset
  present_.clear();
  if (had_pins) announce_pins_changed();
  if (link_) {
    link_->close(Error::domain(DomainError::DeviceDisconnected, config_.id + ": device disconnected"));
    link_.reset();
  }
  polled_.clear();
}

void McuBridge::start_grace() {
  grace_until_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(config_.replug_grace_ms);
  grace_timer_.expires_at(*grace_until_);
  grace_timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || !self->grace_until_) return;
    self->grace_until_.reset();
    log::info("bridge", self->config_.id, ": not back within ", self->config_.replug_grace_ms,
              " ms; its tools are removed until it is");
    self->registry_.remove_owner(self->owner());
    self->events_.touch_status("bridges");
  });
}

void McuBridge::end_grace() {
  grace_until_.reset();
  grace_timer_.cancel();
}

std::optional<std::int64_t> McuBridge::tools_kept_until_ms() const {
  if (!grace_until_) return std::nullopt;
  return unix_ms(*grace_until_);
}

Error McuBridge::away_error() const {
  auto error = Error::domain(DomainError::DeviceDisconnected, config_.id + ": device not connected");
  if (!grace_until_) return error;
  // About when the device can be back: the next reconnect attempt (now, if one
  // is under way), the board's reset wait, and discovery.
  const auto now = std::chrono::steady_clock::now();
  const auto attempt = redial_.next_attempt();
  const auto until_attempt = attempt && *attempt > now ? *attempt - now : std::chrono::steady_clock::duration::zero();
  error.retry_after_ms =
      static_cast<std::uint32_t>(std::chrono::duration_cast<std::chrono::milliseconds>(until_attempt).count() +
                                 config_.reset_wait_ms + kDiscoveryAllowanceMs);
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*grace_until_ - now).count();
  error.message = config_.id + ": device disconnected; waiting " + std::to_string(std::max<std::int64_t>(left, 0)) +
                  " ms more for it to come back (retry in " + std::to_string(error.retry_after_ms) + " ms)";
  return error;
}

void McuBridge::schedule_retry() {
  state_ = State::Waiting;
  redial_.later([weak = weak_from_this()] {
    auto self = weak.lock();
    if (self && self->state_ == State::Waiting) self->connect();
  });
}

void McuBridge::invoke(const std::string& method, json arguments, ToolReply reply) {
  if (state_ != State::Ready || !link_) {
    reply(std::unexpected(away_error()));
    return;
  }
  if (!reads_or_drives_pin(method)) return link_->call(method, arguments, std::move(reply));
  link_->call(method, arguments,
              [weak = weak_from_this(), generation = generation_, reply = std::move(reply)](ToolResult result) {
                auto self = weak.lock();
                if (self && result && generation == self->generation_) self->note_reading(*result);
                reply(std::move(result));
              });
}

void McuBridge::register_tools(const DeviceManifest& manifest) {
  ToolRegistry::Batch batch(registry_);  // a device back within its grace period: the same tools, no list_changed
  registry_.remove_owner(owner());
  auto refused = manifest.refused;
  for (const auto& device_tool : manifest.tools) {
    Tool tool;
    tool.name = config_.id + "__" + device_tool.name;
    tool.title = config_.id + ": " + (device_tool.title.empty() ? device_tool.name : device_tool.title);
    tool.description = "[" + config_.id + "] " + device_tool.description;
    tool.input_schema = device_tool.input_schema;
    tool.annotations = device_tool.hints;
    tool.annotations.polling_interval_ms = device_tool.polling_ms;
    tool.owner = owner();
    tool.invoke = [weak = weak_from_this(), method = device_tool.name](json arguments, ToolReply reply) {
      auto self = weak.lock();
      if (!self) {
        reply(std::unexpected(Error::domain(DomainError::DeviceDisconnected, "device bridge removed")));
        return;
      }
      self->invoke(method, std::move(arguments), std::move(reply));
    };
    if (auto added = registry_.add(std::move(tool)); !added) {
      refused.push_back({"tool", device_tool.name, added.error().message});
    }
  }
  report_refusals(std::move(refused));
}

void McuBridge::report_refusals(std::vector<Refusal> refused) {
  if (refused == refused_) return;  // a device that comes and goes is not reported each time
  refused_ = std::move(refused);
  for (std::size_t i = 0; i < std::min(refused_.size(), kLoggedRefusals); ++i) {
    const auto& r = refused_[i];
    log::warn("bridge", config_.id, ": refused the device's ", r.kind, " '", r.name, "': ", r.reason);
  }
  if (refused_.size() > kLoggedRefusals) {
    log::warn("bridge", config_.id, ": refused ", refused_.size() - kLoggedRefusals,
              " more of the device's tools and pins (mcpuctl bridges counts them)");
  }
}

pins::BoardPin* McuBridge::find_pin(std::string_view name) {
  if (std::find(present_.begin(), present_.end(), name) == present_.end()) return nullptr;
  const auto it = pins_.find(name);
  return it == pins_.end() ? nullptr : it->second.board.get();
}

void McuBridge::describe_pins(json& out) const {
  for (const auto& name : present_) {
    const auto& remote = pins_.at(name);
    const auto& pin = *remote.board;
    json entry = {{"pin", pin.number()},
                  {"name", pin.name()},
                  {"device", config_.id},
                  {"type", remote.type},
                  {"description", "[" + config_.id + "] " + pin.config.description}};
    if (pin.sampler) {
      const auto& o = pin.sampler->options();
      entry["capabilities"] = {{"summary", true}, {"buffer", true}, {"events", false}};
      entry["sampling"] = {{"interval_ms", o.interval_ms}, {"buffer_size", o.buffer_size}};
    }
    out.push_back(std::move(entry));
  }
}

}  // namespace mcpud::bridge
