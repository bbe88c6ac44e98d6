// SPDX-License-Identifier: MIT
// The accept loop takes what waits in the backlog in one turn: with long turns
// (other clients' batches) one accept per turn kept newcomers waiting behind
// every connection queued before them.
#include "mcpud/io/acceptor.hpp"

#include <gtest/gtest.h>

#include <vector>

#include <boost/asio/ip/tcp.hpp>

#include "mcpud/io/tcp_endpoint.hpp"

namespace mcpud::io {
namespace {

using boost::asio::ip::tcp;

TEST(Acceptor, ConnectionsWaitingInTheBacklogAreAllAcceptedInOneTurn) {
  boost::asio::io_context io;
  Acceptor<tcp> acceptor(io);
  ASSERT_FALSE(listen_tcp(acceptor.socket(), tcp::endpoint(boost::asio::ip::address_v4::loopback(), 0)));
  std::vector<tcp::socket> admitted;
  acceptor.start("test", [&](tcp::socket socket) { admitted.push_back(std::move(socket)); });

  // Ten clients connect (the kernel completes their handshakes) before the loop turns once.
  std::vector<tcp::socket> clients;
  for (int i = 0; i < 10; ++i) {
    clients.emplace_back(io);
    clients.back().connect(acceptor.socket().local_endpoint());
  }
  ASSERT_EQ(io.run_one(), 1u);  // the turn that the first connection wakes
  EXPECT_EQ(admitted.size(), 10u);
  acceptor.close();
}

}  // namespace
}  // namespace mcpud::io
