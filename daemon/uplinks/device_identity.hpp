// SPDX-License-Identifier: MIT
// How the board names itself to a voice-assistant server: the Device-Id (a MAC
// address, formatted as the firmware does) and a Client-Id (a UUID that stays the
// same across restarts without any state on disk).
#pragma once

#include <string>
#include <string_view>

namespace mcpud::uplinks {

// "aa:bb:cc:dd:ee:ff" (lower case, colons) of the non-loopback interface with
// the lowest index that has a non-zero hardware address. Without one (a
// container), a locally administered address derived from the machine id.
std::string default_device_id();

// A version-5-style UUID ("xxxxxxxx-xxxx-5xxx-yxxx-xxxxxxxxxxxx") from SHA-1 of
// /etc/machine-id (or the host name) and `device_id`: stable for one board and
// device id, different between boards, with nothing to store.
std::string derived_client_id(std::string_view device_id);

// The UUID formatting of the first 16 bytes of a digest, with version and variant set.
std::string uuid_from_digest(std::string_view digest);

// The MQTT reply topic voice-assistant servers commonly use: devices/p2p/<mac with underscores>.
std::string default_reply_topic(std::string_view device_id);

}  // namespace mcpud::uplinks
