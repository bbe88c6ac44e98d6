// SPDX-License-Identifier: MIT
// How the board names itself to a voice-assistant server: the Device-Id (a MAC
// address, formatted as the firmware does) and a Client-Id (a UUID that stays the
// same across restarts without any state on disk).
// Plain data and functions without state; any thread.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpud::uplinks {

// A network interface as /sys/class/net/<name> describes it.
struct NetInterface {
  std::string name;
  std::string address;    // "aa:bb:cc:dd:ee:ff"
  bool up = false;        // operstate "up"
  bool physical = false;  // backed by a device (a `device` link): eth0, wlan0; not ifb0, veth, bridges
  bool loopback = false;
  unsigned index = 0;
};

// The interfaces under `sysfs_net` (normally /sys/class/net).
std::vector<NetInterface> read_interfaces(const std::filesystem::path& sysfs_net);

// The MAC (lower case) of the interface a voice-assistant server should know the
// board by: a physical one before a virtual one, an up one before a down one,
// then the lowest index; loopback and all-zero addresses never. nullopt if none.
std::optional<std::string> choose_device_mac(const std::vector<NetInterface>& interfaces);

// "aa:bb:cc:dd:ee:ff" (lower case, colons): choose_device_mac of this machine's
// interfaces. Without one (a container), a locally administered address derived
// from the machine id.
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
