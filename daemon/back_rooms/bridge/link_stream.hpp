// SPDX-License-Identifier: MIT
// The byte stream to one device: a serial port opened exclusively in raw mode,
// or a TCP connection. Single-threaded (event loop only).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/system/error_code.hpp>

#include "mcpud/core/error.hpp"

namespace mcpud::bridge {

class LinkStream {
 public:
  using Handler = std::function<void(boost::system::error_code, std::size_t)>;
  virtual ~LinkStream() = default;
  // `buffer` (and `data`) must stay valid until the handler runs.
  virtual void async_read_some(std::span<char> buffer, Handler handler) = 0;
  virtual void async_write(const std::string& data, Handler handler) = 0;
  // Cancels pending operations (their handlers see an error) and closes.
  virtual void close() = 0;
};

// Opens a serial port for a bridge: O_NONBLOCK, raw 8N1 at `baud`, no flow
// control, exclusive (flock LOCK_EX|LOCK_NB, then TIOCEXCL). Opening asserts
// DTR, which resets Arduino-style boards. A port locked by anyone else (another
// bridge, the serial tools, the tty listener, another program) gives
// PORT_ALREADY_IN_USE; a missing or unusable port OPEN_ERROR.
Result<std::unique_ptr<LinkStream>> open_serial(boost::asio::io_context& io, const std::string& path,
                                                std::uint32_t baud);

// Connects to "host:port" (a name or an address; "[v6]:port"), giving up after
// `timeout_ms`. Calls `done` exactly once, from the event loop.
void connect_tcp(boost::asio::io_context& io, const std::string& address, std::uint32_t timeout_ms,
                 std::function<void(Result<std::unique_ptr<LinkStream>>)> done);

}  // namespace mcpud::bridge
