// SPDX-License-Identifier: MIT
// The topics of one device in fleet mode, under "<prefix>/<device>/":
//   rpc/req            requests (MQTT 5: replies to the Response Topic)
//   rpc/req/<client>   requests from MQTT 3.1.1 clients: replies on rpc/res/<client>
//   rpc/res            replies to requests that named no reply topic
//   info               retained: get_info, the tool list and these topics
//   status             retained: "online", or "offline" (clean shutdown or last will)
//   events/<pin>       pin events and output changes
// Plain data; no I/O.
#pragma once

#include <string>

#include "mcpud/mqtt/options.hpp"

namespace mcpud::uplinks {

class FleetTopics {
 public:
  FleetTopics(const std::string& prefix, const std::string& device) : base_(prefix + "/" + device) {}

  std::string request() const { return base_ + "/rpc/req"; }
  std::string request_filter() const { return base_ + "/rpc/req/+"; }  // the 3.1.1 per-client requests
  std::string reply_fallback(const std::string& client) const { return base_ + "/rpc/res/" + client; }
  std::string default_reply() const { return base_ + "/rpc/res"; }
  std::string info() const { return base_ + "/info"; }
  std::string status() const { return base_ + "/status"; }
  // `pin` with '/', '+' and '#' replaced by '_' so it stays one topic level.
  std::string events(const std::string& pin) const;

  // Where the reply to `request` goes: its Response Topic (MQTT 5), else
  // rpc/res/<client> for a request on rpc/req/<client>, else rpc/res.
  std::string reply_topic(const mqtt::Message& request) const;

 private:
  std::string base_;
};

}  // namespace mcpud::uplinks
