// SPDX-License-Identifier: MIT
// A SerialSession on a real pty, driven by its own io_context: received bytes
// are published as SerialData events and buffered for reads.
#include <gtest/gtest.h>

#include <pty.h>
#include <unistd.h>

#include <chrono>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "mcpud/io/port_open.hpp"
#include "mcpud/serial/serial_session.hpp"

namespace mcpud::serial {
namespace {

using namespace std::chrono_literals;

class SerialSessionOnAPty : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[128] = {};
    int slave = -1;
    ASSERT_EQ(::openpty(&master_, &slave, name, nullptr, nullptr), 0);
    ::close(slave);
    auto port = io::open_serial_port(name, io::PortSettings{});
    ASSERT_TRUE(port) << port.error().message;
    SessionOptions options{"s1", name, name, port->settings};
    options.buffer_bytes = 64;
    session_ = std::make_shared<SerialSession>(io_, std::move(port->fd), options, events_);
    session_->start();
    subscription_ = events_.subscribe([this](const Event& e) {
      if (e.kind == EventKind::SerialData) seen_.push_back(e);
    });
  }
  void TearDown() override {
    if (session_) session_->close();
    if (master_ >= 0) ::close(master_);
  }

  // Runs the loop until `done` holds (or a generous deadline passes).
  template <class Condition>
  bool run_until(Condition done) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!done() && std::chrono::steady_clock::now() < deadline) io_.run_for(20ms);
    return done();
  }

  boost::asio::io_context io_;
  EventHub events_;
  EventHub::Subscription subscription_;
  std::vector<Event> seen_;
  std::shared_ptr<SerialSession> session_;
  int master_ = -1;
};

TEST_F(SerialSessionOnAPty, ReceivedBytesArePublishedAsSerialData) {
  ASSERT_EQ(::write(master_, "boot ok\n", 8), 8);
  ASSERT_TRUE(run_until([&] { return session_->counters().received == 8; }));
  ASSERT_FALSE(seen_.empty());
  const auto& event = seen_.front();
  EXPECT_EQ(event.source, "s1");
  EXPECT_EQ(event.data["session_id"], "s1");
  EXPECT_EQ(event.data["data"], "boot ok\n");
  EXPECT_EQ(event.data["encoding"], "utf8");
  EXPECT_EQ(event.data["bytes"], 8);
  EXPECT_EQ(session_->buffered(), 8u) << "publishing does not consume: reads still get the bytes";
}

TEST_F(SerialSessionOnAPty, BinaryChunksArePublishedInBase64) {
  ASSERT_EQ(::write(master_, "\xff\x00\x01", 3), 3);
  ASSERT_TRUE(run_until([&] { return !seen_.empty(); }));
  EXPECT_EQ(seen_.front().data["encoding"], "base64");
  EXPECT_EQ(seen_.front().data["data"], "/wAB");
}

TEST_F(SerialSessionOnAPty, AReadWaitsForDataAndReportsOverflowOnce) {
  std::optional<Result<ReadOutcome>> got;
  ReadRequest request;
  request.timeout = 10s;
  session_->read(request, [&](Result<ReadOutcome> r) { got = std::move(r); });
  EXPECT_EQ(session_->pending_reads(), 1u);
  const std::string burst(100, 'x');
  ASSERT_EQ(::write(master_, burst.data(), burst.size()), 100);
  ASSERT_TRUE(run_until([&] { return got.has_value(); }));
  ASSERT_TRUE(*got);
  // The read may have ended on the first chunk; whatever came is in order and
  // everything past the 64-byte ring is counted, never silently dropped.
  ASSERT_TRUE(run_until([&] { return session_->counters().received == 100; }));
  EXPECT_EQ((*got)->bytes.size() + session_->buffered() + session_->lost(), 100u);
}

TEST_F(SerialSessionOnAPty, UnplugEndsAWaitingReadWithDeviceDisconnected) {
  std::optional<Result<ReadOutcome>> got;
  ReadRequest request;
  request.timeout = 30s;
  session_->read(request, [&](Result<ReadOutcome> r) { got = std::move(r); });
  ::close(master_);
  master_ = -1;
  ASSERT_TRUE(run_until([&] { return got.has_value(); }));
  ASSERT_FALSE(*got);
  EXPECT_EQ(got->error().name, "DEVICE_DISCONNECTED");
  EXPECT_EQ(session_->state(), SessionState::Disconnected);
}

}  // namespace
}  // namespace mcpud::serial
