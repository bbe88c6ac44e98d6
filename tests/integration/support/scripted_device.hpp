// SPDX-License-Identifier: MIT
// A scripted MCP/U microcontroller for the bridge tests: a thread serving the
// MCP/U protocol on a real pty (mcpud opens the slave through a symlink, as it
// would /dev/serial/by-id/...) or a real TCP socket, answering like the
// reference firmware: replies end in "\r\n", unreadable requests get id-0
// errors, requests without an integer id get nothing, boot noise on every
// (re)open, AVR-style listings without schemas, a polled custom tool and a
// buffered ADC pin that samples on its own clock.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcpud::it {

// Points `link` at `target`, replacing any previous link atomically (rename).
void point_link(const std::filesystem::path& link, const std::string& target);

struct ScriptedDeviceOptions {
  std::string device = "scripted-mcu";
  bool avr = false;                        // built-ins listed without inputSchema; pins without capabilities
  bool cursor = false;                     // get_pin_buffer reports first_seq/next_since/last_seq and honours since
  std::uint32_t sample_interval_ms = 100;  // the buffered pin "sensor" (pin 34; not on AVR)
  std::size_t buffer_size = 20;
  std::uint32_t polling_ms = 200;         // custom tool read_touch, polled by the host
  std::uint32_t read_touch_delay_ms = 0;  // read_touch answers this late (to test overlap)
  bool tear_first_request = false;        // answer the first request after each open with an id-0 parse error
  // Read every request in two pieces, as reference firmware does when a line
  // arrives slowly: the head gets an id-0 -32700, the tail an id-0 -32600; only
  // the request sent again (same id) is answered.
  bool split_every_request = false;
  nlohmann::json extra_tools = nlohmann::json::array();  // more list_tools entries, as declared (answered with {})
};

class ScriptedDevice {
 public:
  // Serves on a new pty whose slave `link` points to (a symlink, replaced atomically).
  static std::unique_ptr<ScriptedDevice> on_pty(ScriptedDeviceOptions options, std::filesystem::path link);
  // Serves on 127.0.0.1 at a kernel-chosen port, one client at a time.
  static std::unique_ptr<ScriptedDevice> on_tcp(ScriptedDeviceOptions options);
  ~ScriptedDevice();

  int tcp_port() const { return tcp_port_; }
  // Stops answering (requests are still read and counted) or answers again.
  void set_muted(bool muted);
  // The cable is pulled: the pty master (or TCP connection and listener) closes.
  void unplug();
  // Plugged back: a new pty behind the same link (or a new listener on the same port).
  void plug_in();

  // Everything received so far, parsed (non-JSON lines as strings).
  std::vector<nlohmann::json> requests() const;
  std::size_t count_requests(const std::string& method) const;
  // The level last written to digital output pin 13 ("led").
  bool led() const;
  // How many times the host opened the port / connected.
  int opens() const { return opens_; }
  // Whether a read_touch call ever arrived while another was unanswered.
  bool overlapping_polls() const { return overlapping_polls_; }
  // Every sample value the buffered pin produced so far (1, 2, 3, ...).
  std::int64_t samples_taken() const;

 private:
  explicit ScriptedDevice(ScriptedDeviceOptions options);
  void start_thread();
  void run();
  bool open_pty();
  bool open_listener();
  void on_bytes(const char* data, std::size_t n);
  void on_request_line(const std::string& line);
  void send_line(const nlohmann::json& message);
  nlohmann::json handle(const std::string& method, const nlohmann::json& params);
  nlohmann::json list_tools() const;
  nlohmann::json pin_buffer(const nlohmann::json& params);
  void flush_delayed();
  void opened();

  ScriptedDeviceOptions options_;
  std::filesystem::path link_;
  bool tcp_ = false;
  int master_ = -1;    // pty master (pty mode)
  int listener_ = -1;  // listening socket (tcp mode)
  int client_ = -1;    // connected socket (tcp mode)
  int tcp_port_ = 0;
  bool slave_open_ = false;
  std::string partial_;
  bool torn_ = false;
  std::optional<std::int64_t> last_split_id_;  // split_every_request: the id whose pieces were answered

  mutable std::mutex mutex_;
  std::vector<nlohmann::json> requests_;
  bool led_ = false;
  bool muted_ = false;
  bool plugged_ = true;
  int pending_reads_ = 0;
  std::int64_t touch_count_ = 0;
  std::vector<std::pair<std::chrono::steady_clock::time_point, nlohmann::json>> delayed_;
  std::chrono::steady_clock::time_point sampling_start_ = std::chrono::steady_clock::now();
  std::atomic<int> opens_{0};
  std::atomic<bool> overlapping_polls_{false};
  std::atomic<bool> stop_{false};
  std::atomic<bool> replug_{false};
  std::thread thread_;
};

}  // namespace mcpud::it
