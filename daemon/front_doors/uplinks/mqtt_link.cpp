// SPDX-License-Identifier: MIT
// Session links over one persistent MQTT connection.
#include "mqtt_link.hpp"

#include <boost/asio/post.hpp>

#include "mcpud/mqtt/client.hpp"

namespace mcpud::uplinks {

namespace {
class MqttLink;
}

struct MqttChannel::State {
  State(boost::asio::io_context& io, MqttLinkOptions opts)
      : io(io),
        options(std::move(opts)),
        peer("mqtt://" + options.client.host + ":" + std::to_string(options.client.port) + "/" + options.publish_topic),
        client(io, options.client) {}

  boost::asio::io_context& io;
  MqttLinkOptions options;
  std::string peer;
  mqtt::Client client;
  std::weak_ptr<MqttLink> current;  // the session being served
};

namespace {

class MqttLink final : public MessageLink, public std::enable_shared_from_this<MqttLink> {
 public:
  explicit MqttLink(std::shared_ptr<MqttChannel::State> state) : state_(std::move(state)) {}

  void open(Handlers handlers) override {
    handlers_ = std::move(handlers);
    state_->current = weak_from_this();
    if (state_->client.connected()) {
      boost::asio::post(state_->io, [self = shared_from_this()] { self->opened(); });
    }
  }

  bool send(std::string text) override {
    if (closed_) return false;
    auto published = state_->client.publish({state_->options.publish_topic, std::move(text), state_->options.qos});
    if (!published) {
      finish(published.error());
      return false;
    }
    return true;
  }

  // Published messages are the client's from here on: it flushes them in order.
  void close() override { finish("closed"); }

  const std::string& peer() const override { return state_->peer; }

  // The broker connection is up (now or again).
  void opened() {
    if (closed_ || open_) return;
    open_ = true;
    if (handlers_.on_open) handlers_.on_open();
  }

  void deliver(const std::string& payload) {
    if (closed_ || !open_) return;
    if (payload.size() > state_->options.max_message_bytes) {
      return finish("a message from the server exceeded " + std::to_string(state_->options.max_message_bytes) +
                    " bytes");
    }
    const auto on_message = handlers_.on_message;  // may close the link while it runs
    if (on_message) on_message(payload);
  }

  void finish(const std::string& why) {
    if (closed_) return;
    closed_ = true;
    if (state_->current.lock().get() == this) state_->current.reset();
    auto on_closed = std::move(handlers_.on_closed);
    handlers_.on_closed = nullptr;
    if (on_closed) on_closed(why);
  }

 private:
  std::shared_ptr<MqttChannel::State> state_;
  Handlers handlers_;
  bool open_ = false;
  bool closed_ = false;
};

}  // namespace

MqttChannel::MqttChannel(boost::asio::io_context& io, MqttLinkOptions options)
    : state_(std::make_shared<State>(io, std::move(options))) {
  const std::weak_ptr<State> weak = state_;
  const auto current = [weak]() -> std::shared_ptr<MqttLink> {
    auto state = weak.lock();
    return state ? state->current.lock() : nullptr;
  };
  state_->client.on_connect([current] {
    if (auto link = current()) link->opened();
  });
  state_->client.on_disconnect([current](const std::string& reason) {
    if (auto link = current()) link->finish("broker connection lost: " + reason);
  });
  state_->client.on_message([current, weak](const mqtt::Message& message) {
    auto state = weak.lock();
    auto link = current();
    if (state && link && message.topic == state->options.reply_topic) link->deliver(message.payload);
  });
  if (auto subscribed = state_->client.subscribe(state_->options.reply_topic, state_->options.qos); !subscribed) {
    throw std::runtime_error(subscribed.error());
  }
  state_->client.start();
}

MqttChannel::~MqttChannel() {
  if (auto link = state_->current.lock()) link->finish("closed");
  state_->client.stop();
}

std::shared_ptr<MessageLink> MqttChannel::link() {
  if (auto previous = state_->current.lock()) previous->finish("replaced by a new session");
  return std::make_shared<MqttLink>(state_);
}

const std::string& MqttChannel::peer() const { return state_->peer; }

}  // namespace mcpud::uplinks
