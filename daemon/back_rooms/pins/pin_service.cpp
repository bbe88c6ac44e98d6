// SPDX-License-Identifier: MIT
// Building, replacing and stopping the board's pins with their tools and sampling.
#include "mcpud/pins/pin_service.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "board_kinds.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/pins/pin_sampling.hpp"
#include "mcpud/pins/pin_tools.hpp"

namespace mcpud::pins {

// The guard's clock on the event loop: one steady_timer for every output's
// deadline, armed only while some output is away from its safe value.
class LoopGuardClock final : public GuardClock {
 public:
  explicit LoopGuardClock(boost::asio::io_context& io) : io_(io), timer_(io) {}
  void set_guard(OutputGuard* guard) { guard_ = guard; }

  std::int64_t now_ms() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  void wake_at(std::optional<std::int64_t> at_ms) override {
    timer_.cancel();
    if (!at_ms) return;
    timer_.expires_at(std::chrono::steady_clock::time_point(std::chrono::milliseconds(*at_ms)));
    timer_.async_wait([this](const boost::system::error_code& error) {
      if (!error && guard_) guard_->expire();
    });
  }

  void defer(std::function<void()> work) override { boost::asio::post(io_, std::move(work)); }

 private:
  boost::asio::io_context& io_;
  boost::asio::steady_timer timer_;
  OutputGuard* guard_ = nullptr;
};

PinService::PinService(boost::asio::io_context& io, ToolRegistry& registry, EventHub& events)
    : io_(io),
      registry_(registry),
      events_(events),
      reads_(io),
      guard_clock_(std::make_unique<LoopGuardClock>(io)),
      guard_(std::make_unique<OutputGuard>(*guard_clock_, &events)) {
  guard_clock_->set_guard(guard_.get());
}

PinService::~PinService() {
  release();
  guard_.reset();
}

std::expected<void, std::string> PinService::apply(const BoardConfig& board, const std::string& consumer,
                                                   ForeignPins* foreign, const hal::SimBuses* sim_buses) {
  // Simulated pins hold nothing; real ones must be let go before they can be taken again.
  const bool held = !table_->pins().empty() && running_.kind != BoardKind::Sim;
  if (held) release();
  auto table = PinTable::build(board, consumer, sim_buses);
  if (!table) {
    if (held) {
      auto again = PinTable::build(running_, consumer_, running_sim_buses_);
      if (!again) log::error("pins", "cannot take back the running pins: ", again.error().message);
      install(again ? std::move(*again) : std::make_unique<PinTable>(), running_foreign_);
    }
    return std::unexpected(table.error().message);
  }
  install(std::move(*table), foreign);
  running_ = board;
  consumer_ = consumer;
  running_foreign_ = foreign;
  running_sim_buses_ = sim_buses;
  return {};
}

void PinService::stop(bool drive_safe_values) {
  if (sampling_) sampling_->stop();
  guard_->detach();
  if (drive_safe_values) table_->drive_safe_values();
}

void PinService::release() {
  if (sampling_) sampling_->stop();
  sampling_.reset();
  registry_.remove_owner(kPinToolsOwner);
  if (guard_) guard_->detach();
  table_ = std::make_unique<PinTable>();
}

void PinService::install(std::unique_ptr<PinTable> table, ForeignPins* foreign) {
  ToolRegistry::Batch batch(registry_);
  release();
  table_ = std::move(table);
  table_->set_foreign(foreign);
  guard_->adopt(*table_);
  register_pin_tools(registry_, *table_, reads_, &events_, guard_.get());
  sampling_ = std::make_unique<PinSampling>(io_, *table_, reads_, events_);
  sampling_->start();
}

std::expected<void, std::string> check_board(const BoardConfig& board, const std::string& consumer,
                                             const hal::SimBuses* sim_buses) {
  if (board.kind != BoardKind::Sim) {
    if (auto lines = check_lines_exist(board); !lines) return lines;
    return check_sensors_exist(board);
  }
  if (auto table = PinTable::build(board, consumer, sim_buses); !table) return std::unexpected(table.error().message);
  return {};
}

}  // namespace mcpud::pins
