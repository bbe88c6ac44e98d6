// SPDX-License-Identifier: MIT
// make_ws_link: a ws:// link here, a wss:// one from the TLS module.
#include "ws_link.hpp"

#include "tls_link.hpp"
#include "ws_link_impl.hpp"

namespace mcpud::uplinks {
namespace {

// ws://: the WebSocket straight on TCP.
struct PlainTransport {
  using Stream = boost::beast::websocket::stream<boost::beast::tcp_stream>;
  struct Context {};

  static std::expected<void, std::string> make(boost::asio::io_context& io, const WsOptions&, Context&,
                                               std::optional<Stream>& stream) {
    stream.emplace(io);
    return {};
  }
  template <class Done>
  static void secure(Stream&, const WsOptions&, Done&& done) {
    done(boost::system::error_code{});
  }
};

}  // namespace

std::shared_ptr<MessageLink> make_ws_link(boost::asio::io_context& io, WsOptions options) {
  if (options.target.tls) return tls_module().make_ws_link(io, std::move(options));
  return std::make_shared<ws_detail::WsLink<PlainTransport>>(io, std::move(options));
}

}  // namespace mcpud::uplinks
