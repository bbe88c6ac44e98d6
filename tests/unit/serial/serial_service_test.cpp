// SPDX-License-Identifier: MIT
// SerialService on real ptys with its own io_context: a session is its
// opener's (others see no such session), closes when its opener goes away
// unless sessions are shared, and all ring buffers together stay within
// buffer_bytes_total.
#include "mcpud/serial/serial_service.hpp"

#include <gtest/gtest.h>

#include <pty.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <boost/asio/io_context.hpp>

namespace mcpud::serial {
namespace {

using namespace std::chrono_literals;

class SerialServiceOnPtys : public ::testing::Test {
 protected:
  void TearDown() override {
    service_.reset();
    for (const int fd : masters_) ::close(fd);
  }

  void start(SerialConfig config) {
    config.allowed_ports = std::vector<std::string>{"/dev/pts/*"};
    config.hotplug = false;
    service_ = std::make_unique<SerialService>(io_, events_, std::move(config));
  }

  // A fresh pty; the path of its slave.
  std::string pty() {
    char name[128] = {};
    int master = -1, slave = -1;
    EXPECT_EQ(::openpty(&master, &slave, name, nullptr, nullptr), 0);
    ::close(slave);
    masters_.push_back(master);
    return name;
  }

  Result<std::shared_ptr<SerialSession>> open(const std::shared_ptr<ClientIdentity>& owner,
                                              std::size_t buffer_bytes = 1024) {
    OpenRequest request;
    request.port = pty();
    request.timeout = Millis(service_->config().default_timeout_ms);
    request.newline = service_->config().newline;
    request.buffer_bytes = buffer_bytes;
    return service_->open(request, owner);
  }

  boost::asio::io_context io_;
  EventHub events_;
  std::unique_ptr<SerialService> service_;
  std::vector<int> masters_;
};

TEST_F(SerialServiceOnPtys, ASessionIsItsOpenersAndGoesWithIt) {
  start(default_config());
  auto alice = std::make_shared<ClientIdentity>();
  const auto bob = std::make_shared<ClientIdentity>();
  auto opened = open(alice);
  ASSERT_TRUE(opened) << opened.error().message;
  const auto id = (*opened)->options().id;
  EXPECT_TRUE(service_->find(id, alice));
  const auto for_bob = service_->find(id, bob);
  ASSERT_FALSE(for_bob);
  EXPECT_EQ(for_bob.error().name, "UNKNOWN_SESSION");
  EXPECT_TRUE(service_->sessions(bob).empty());
  EXPECT_EQ(service_->sessions(alice).size(), 1u);
  EXPECT_EQ(service_->sessions(nullptr).size(), 1u) << "the daemon itself sees every session";

  alice.reset();  // her connection closed
  io_.run_for(50ms);
  EXPECT_TRUE(service_->sessions(nullptr).empty());
  EXPECT_EQ((*opened)->state(), SessionState::Closed);
}

TEST_F(SerialServiceOnPtys, SharedSessionsAreEveryonesAndStay) {
  auto config = default_config();
  config.share_sessions = true;
  start(config);
  auto alice = std::make_shared<ClientIdentity>();
  auto opened = open(alice);
  ASSERT_TRUE(opened);
  alice.reset();
  io_.run_for(50ms);
  EXPECT_TRUE(service_->find((*opened)->options().id, std::make_shared<ClientIdentity>()));
}

TEST_F(SerialServiceOnPtys, AStatelessRequestsSessionIsEveryStatelessRequestsAndClosesWhenUnused) {
  auto config = default_config();
  config.stateless_idle_ms = 20;  // the schema's least is 1000: a test need not wait that long
  start(config);
  const auto stateless = [] { return std::make_shared<ClientIdentity>(ClientIdentity::Lifetime::OneRequest); };
  auto opened = open(stateless());  // its request ended at once: the identity is gone
  ASSERT_TRUE(opened) << opened.error().message;
  const auto id = (*opened)->options().id;
  io_.run_for(50ms);
  EXPECT_TRUE(service_->find(id, stateless())) << "a later stateless request may use it";
  EXPECT_FALSE(service_->find(id, std::make_shared<ClientIdentity>())) << "a connection's client may not";
  EXPECT_EQ(service_->sessions(stateless()).size(), 1u);

  std::this_thread::sleep_for(30ms);                      // unused for longer than stateless_idle_ms
  EXPECT_TRUE(open(std::make_shared<ClientIdentity>()));  // the next open closes what was left unused
  EXPECT_FALSE(service_->find(id, stateless()));
  EXPECT_EQ((*opened)->state(), SessionState::Closed);
}

TEST_F(SerialServiceOnPtys, OnlyTheOwnerHearsItsSessionsData) {
  start(default_config());
  const auto alice = std::make_shared<ClientIdentity>();
  auto opened = open(alice);
  ASSERT_TRUE(opened);
  std::vector<Event> seen;
  auto subscription = events_.subscribe([&](const Event& e) {
    if (e.kind == EventKind::SerialData) seen.push_back(e);
  });
  ASSERT_EQ(::write(masters_.back(), "hi", 2), 2);
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (seen.empty() && std::chrono::steady_clock::now() < deadline) io_.run_for(20ms);
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front().audience, alice);
}

TEST_F(SerialServiceOnPtys, RingBuffersStayWithinTheirTotal) {
  auto config = default_config();
  config.buffer_bytes_total = 3000;
  start(config);
  ASSERT_TRUE(open(nullptr, 1024));
  ASSERT_TRUE(open(nullptr, 1024));
  const auto full = open(nullptr, 1024);
  ASSERT_FALSE(full);
  EXPECT_EQ(full.error().name, "BUSY");
  EXPECT_NE(full.error().message.find("buffer_bytes_total (3000 bytes): 2048 are in use by 2 sessions"),
            std::string::npos)
      << full.error().message;
  EXPECT_EQ(service_->buffer_bytes_in_use(), 2048u);
  EXPECT_TRUE(open(nullptr, 952)) << "what is left can still be had";
}

}  // namespace
}  // namespace mcpud::serial
