// SPDX-License-Identifier: MIT
// stdin and stdout as one Asio stream, so `mcpud --stdio` serves its one client
// through the same LineSession as every socket. Event loop only.
#pragma once

#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

namespace mcpud::transports {

class StdioStream {
 public:
  using executor_type = boost::asio::posix::stream_descriptor::executor_type;

  // Duplicates fds 0 and 1, so closing the stream leaves the process's own intact.
  explicit StdioStream(boost::asio::io_context& io) : in_(io, ::dup(STDIN_FILENO)), out_(io, ::dup(STDOUT_FILENO)) {}

  executor_type get_executor() { return in_.get_executor(); }

  template <class Buffers, class Handler>
  auto async_read_some(const Buffers& buffers, Handler&& handler) {
    return in_.async_read_some(buffers, std::forward<Handler>(handler));
  }
  template <class Buffers, class Handler>
  auto async_write_some(const Buffers& buffers, Handler&& handler) {
    return out_.async_write_some(buffers, std::forward<Handler>(handler));
  }

  void close(boost::system::error_code& ec) {
    in_.close(ec);
    out_.close(ec);
  }

 private:
  boost::asio::posix::stream_descriptor in_;
  boost::asio::posix::stream_descriptor out_;
};

}  // namespace mcpud::transports
