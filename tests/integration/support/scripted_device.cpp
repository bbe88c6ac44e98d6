// SPDX-License-Identifier: MIT
// The scripted MCP/U device: protocol handling and the serving thread.
#include "support/scripted_device.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "support/line_client.hpp"

namespace mcpud::it {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr const char* kBootNoise[] = {"ets Jun  8 2016 00:22:57",
                                      "rst:0x1 (POWERON_RESET),boot:0x13 (SPI_FAST_FLASH_BOOT)",
                                      "[MCP/U] firmware starting... {not json either"};

json error_reply(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json pin_schema(bool with_value) {
  json schema = {{"type", "object"}, {"properties", {{"pin", {{"type", "integer"}}}}}, {"required", {"pin"}}};
  if (with_value) {
    schema["properties"]["value"] = {{"type", "boolean"}};
    schema["required"].push_back("value");
  }
  return schema;
}

}  // namespace

void point_link(const std::filesystem::path& link, const std::string& target) {
  const auto fresh = link.string() + ".new";
  std::filesystem::remove(fresh);
  std::filesystem::create_symlink(target, fresh);
  std::filesystem::rename(fresh, link);
}

ScriptedDevice::ScriptedDevice(ScriptedDeviceOptions options) : options_(std::move(options)) {}

std::unique_ptr<ScriptedDevice> ScriptedDevice::on_pty(ScriptedDeviceOptions options, std::filesystem::path link) {
  std::unique_ptr<ScriptedDevice> device(new ScriptedDevice(std::move(options)));
  device->link_ = std::move(link);
  if (!device->open_pty()) return nullptr;
  device->start_thread();
  return device;
}

std::unique_ptr<ScriptedDevice> ScriptedDevice::on_tcp(ScriptedDeviceOptions options) {
  std::unique_ptr<ScriptedDevice> device(new ScriptedDevice(std::move(options)));
  device->tcp_ = true;
  if (!device->open_listener()) return nullptr;
  device->start_thread();
  return device;
}

ScriptedDevice::~ScriptedDevice() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  for (int fd : {master_, listener_, client_}) {
    if (fd >= 0) ::close(fd);
  }
}

bool ScriptedDevice::open_pty() {
  auto pty = mcpud::it::open_pty();
  if (!pty) return false;
  ::fcntl(pty->master, F_SETFL, ::fcntl(pty->master, F_GETFL) | O_NONBLOCK);
  master_ = pty->master;
  slave_open_ = false;
  point_link(link_, pty->slave_path);
  return true;
}

bool ScriptedDevice::open_listener() {
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  const int on = 1;
  ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(tcp_port_));
  if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(listener_, 4) != 0)
    return false;
  socklen_t length = sizeof address;
  ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
  tcp_port_ = ntohs(address.sin_port);
  return true;
}

void ScriptedDevice::start_thread() {
  thread_ = std::thread([this] { run(); });
}

void ScriptedDevice::set_muted(bool muted) {
  std::lock_guard lock(mutex_);
  muted_ = muted;
}

void ScriptedDevice::unplug() {
  std::lock_guard lock(mutex_);
  plugged_ = false;
}

void ScriptedDevice::plug_in() {
  std::lock_guard lock(mutex_);
  plugged_ = true;
}

std::vector<json> ScriptedDevice::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

std::size_t ScriptedDevice::count_requests(const std::string& method) const {
  std::lock_guard lock(mutex_);
  return static_cast<std::size_t>(std::count_if(requests_.begin(), requests_.end(), [&](const json& r) {
    return r.is_object() && r.value("method", json()) == method;
  }));
}

bool ScriptedDevice::led() const {
  std::lock_guard lock(mutex_);
  return led_;
}

std::int64_t ScriptedDevice::samples_taken() const {
  const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sampling_start_).count();
  return elapsed / options_.sample_interval_ms;
}

// The serving loop: follows plug state, notices the host opening the port,
// reads requests, sends due replies.
void ScriptedDevice::run() {
  bool plugged = true;
  while (!stop_) {
    bool want;
    {
      std::lock_guard lock(mutex_);
      want = plugged_;
    }
    if (want != plugged) {
      plugged = want;
      for (int* fd : {&master_, &client_, &listener_}) {
        if (*fd >= 0) ::close(*fd);
        *fd = -1;
      }
      if (plugged) tcp_ ? open_listener() : open_pty();
    }
    flush_delayed();
    int fd = tcp_ ? (client_ >= 0 ? client_ : listener_) : master_;
    if (fd < 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    pollfd entry{fd, POLLIN, 0};
    ::poll(&entry, 1, 10);
    if (!tcp_) {
      const bool hung_up = (entry.revents & POLLHUP) != 0;
      if (hung_up) {
        slave_open_ = false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        continue;
      }
      if (!slave_open_) {
        slave_open_ = true;
        opened();
      }
    } else if (fd == listener_ && (entry.revents & POLLIN)) {
      client_ = ::accept4(listener_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (client_ >= 0) opened();
      continue;
    }
    if (!(entry.revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char buffer[4096];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      on_bytes(buffer, static_cast<std::size_t>(n));
    } else if (tcp_ && n == 0) {
      ::close(client_);
      client_ = -1;
    }
  }
}

// The host opened the port: a serial board resets (DTR) and prints its boot banner.
void ScriptedDevice::opened() {
  ++opens_;
  partial_.clear();
  torn_ = options_.tear_first_request;
  {
    std::lock_guard lock(mutex_);
    pending_reads_ = 0;
    delayed_.clear();
  }
  if (tcp_) return;
  std::string noise;
  for (const char* line : kBootNoise) noise += std::string(line) + "\r\n";
  noise += "\x01\xfe garbage without an end";  // an unterminated tail, glued to the next reply
  [[maybe_unused]] auto written = ::write(master_, noise.data(), noise.size());
}

void ScriptedDevice::on_bytes(const char* data, std::size_t n) {
  partial_.append(data, n);
  for (auto newline = partial_.find('\n'); newline != std::string::npos; newline = partial_.find('\n')) {
    std::string line = partial_.substr(0, newline);
    partial_.erase(0, newline + 1);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) on_request_line(line);
  }
}

// Writes the whole line, waiting for room (a long list_tools reply fills a pty
// or socket buffer many times), for at most 10 s.
void ScriptedDevice::send_line(const json& message) {
  const std::string text = message.dump() + "\r\n";
  const int fd = tcp_ ? client_ : master_;
  if (fd < 0) return;
  const auto give_up = Clock::now() + std::chrono::seconds(10);
  std::size_t sent = 0;
  while (sent < text.size() && Clock::now() < give_up) {
    const ssize_t n = ::write(fd, text.data() + sent, text.size() - sent);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
    } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
      return;
    } else {
      pollfd room{fd, POLLOUT, 0};
      ::poll(&room, 1, 50);
    }
  }
}

void ScriptedDevice::on_request_line(const std::string& line) {
  const json request = json::parse(line, nullptr, false);
  bool muted;
  {
    std::lock_guard lock(mutex_);
    requests_.push_back(request.is_discarded() ? json(line) : request);
    muted = muted_;
  }
  if (torn_) {  // as if only part of the line had arrived when the firmware read it
    torn_ = false;
    send_line(error_reply(0, -32700, "Parse error"));
    return;
  }
  if (request.is_discarded()) return send_line(error_reply(0, -32700, "Parse error"));
  if (!request.is_object() || request.value("jsonrpc", json()) != "2.0")
    return send_line(error_reply(0, -32600, "Invalid Request"));
  if (!request.contains("id") || !request["id"].is_number_integer()) return;  // the reference firmware stays silent
  if (options_.split_every_request && last_split_id_ != request["id"].get<std::int64_t>()) {
    last_split_id_ = request["id"].get<std::int64_t>();
    send_line(error_reply(0, -32700, "Parse error"));
    send_line(error_reply(0, -32600, "Invalid Request"));
    return;
  }
  if (muted) return;
  const auto method = request.value("method", json());
  if (!method.is_string()) return send_line(error_reply(request["id"], -32600, "Missing method"));
  json reply = handle(method.get<std::string>(), request.value("params", json::object()));
  reply["jsonrpc"] = "2.0";
  reply["id"] = request["id"];
  if (method == "read_touch" && options_.read_touch_delay_ms > 0) {
    std::lock_guard lock(mutex_);
    if (pending_reads_ > 0) overlapping_polls_ = true;
    ++pending_reads_;
    delayed_.emplace_back(Clock::now() + std::chrono::milliseconds(options_.read_touch_delay_ms), std::move(reply));
    return;
  }
  send_line(reply);
}

void ScriptedDevice::flush_delayed() {
  std::vector<json> due;
  {
    std::lock_guard lock(mutex_);
    const auto now = Clock::now();
    for (auto it = delayed_.begin(); it != delayed_.end();) {
      if (it->first > now) {
        ++it;
        continue;
      }
      due.push_back(std::move(it->second));
      it = delayed_.erase(it);
      --pending_reads_;
    }
  }
  for (const auto& reply : due) send_line(reply);
}

json ScriptedDevice::handle(const std::string& method, const json& params) {
  const auto bad = [](const std::string& message) { return json{{"error", {{"code", -32602}, {"message", message}}}}; };
  const auto pin_of = [&]() -> std::optional<int> {
    if (!params.is_object() || !params.contains("pin") || !params["pin"].is_number_integer()) return std::nullopt;
    return params["pin"].get<int>();
  };
  if (method == "get_info") {
    return {{"result",
             {{"device", options_.device},
              {"version", "1.2.0"},
              {"platform", "arduino"},
              {"pin_count", options_.avr ? 2 : 3},
              {"memory_profile", options_.avr ? "low" : "rich"}}}};
  }
  if (method == "list_tools") return {{"result", list_tools()}};
  if (method == "gpio_write") {
    const auto pin = pin_of();
    if (!pin || !params.contains("value") || !params["value"].is_boolean()) return bad("Bad params");
    if (*pin != 13) return bad(*pin == 34 || *pin == 0 ? "Wrong pin type" : "Pin not found");
    std::lock_guard lock(mutex_);
    led_ = params["value"].get<bool>();
    return {{"result", {{"pin", 13}, {"name", "led"}, {"value", led_}}}};
  }
  if (method == "gpio_read") {
    const auto pin = pin_of();
    if (!pin) return bad("Bad params");
    if (*pin != 13) return bad("Pin not found");
    std::lock_guard lock(mutex_);
    return {{"result", {{"pin", 13}, {"name", "led"}, {"value", led_}}}};
  }
  if (method == "adc_read") {
    const auto pin = pin_of();
    const int adc_pin = options_.avr ? 0 : 34;
    if (!pin) return bad("Bad params");
    if (*pin != adc_pin) return bad(*pin == 13 ? "Wrong pin type" : "Pin not found");
    json result = {{"pin", adc_pin}, {"name", "sensor"}, {"value", 512}};
    if (options_.avr)
      result["mv"] = 2502;
    else
      result["volts"] = 0.413;
    return {{"result", result}};
  }
  if (method == "read_touch") {
    std::lock_guard lock(mutex_);
    return {{"result", {{"touched", ++touch_count_ % 2 == 0}, {"reading", touch_count_}}}};
  }
  if (method == "get_pin_buffer" && !options_.avr) return {{"result", pin_buffer(params)}};
  for (const auto& extra : options_.extra_tools) {
    if (extra.value("name", "") == method) return {{"result", json::object()}};
  }
  return {{"error", {{"code", -32601}, {"message", "Method not found"}}}};
}

json ScriptedDevice::pin_buffer(const json& params) {
  const auto taken = samples_taken();
  const auto size = static_cast<std::int64_t>(options_.buffer_size);
  const auto first = std::max<std::int64_t>(1, taken - size + 1);
  std::int64_t from = first;
  if (options_.cursor && params.contains("since") && params["since"].is_number_integer()) {
    from = std::max(from, params["since"].get<std::int64_t>() + 1);
  }
  const std::int64_t limit =
      params.contains("limit") && params["limit"].is_number_integer() ? params["limit"].get<std::int64_t>() : size;
  json values = json::array();
  for (std::int64_t v = from; v <= taken && static_cast<std::int64_t>(values.size()) < limit; ++v) values.push_back(v);
  json result = {{"pin", "sensor"}, {"count", values.size()}, {"values", values}};
  if (options_.cursor) {
    result["first_seq"] = values.empty() ? taken + 1 : from;
    result["next_since"] =
        values.empty() ? std::min(taken, from - 1) : from + static_cast<std::int64_t>(values.size()) - 1;
    result["last_seq"] = taken;
  }
  return result;
}

json ScriptedDevice::list_tools() const {
  json tools = json::array();
  const auto builtin = [&](const std::string& name, const std::string& description, json schema) {
    json tool = {{"name", name}, {"description", description}};
    if (!options_.avr) tool["inputSchema"] = std::move(schema);
    tools.push_back(std::move(tool));
  };
  builtin("gpio_write", "Write HIGH or LOW to a digital output pin", pin_schema(true));
  builtin("gpio_read", "Read a digital pin", pin_schema(false));
  builtin("pwm_write", "Write PWM duty", pin_schema(false));
  builtin("adc_read", "Read analog voltage from ADC pin", pin_schema(false));
  builtin("get_info", "Device information", {{"type", "object"}, {"properties", json::object()}});
  if (!options_.avr) builtin("get_pin_buffer", "Buffered samples of a pin", pin_schema(false));
  tools.push_back({{"name", "read_touch"},
                   {"description", "Read capacitive touch sensor"},
                   {"inputSchema", {{"type", "object"}, {"required", json::array()}, {"properties", json::object()}}},
                   {"polling", {{"enabled", true}, {"interval_ms", options_.polling_ms}}}});
  for (const auto& extra : options_.extra_tools) tools.push_back(extra);
  json pins = json::array({{{"pin", 13}, {"name", "led"}, {"type", "digital_output"}, {"description", "Onboard LED"}}});
  json sensor = {
      {"pin", options_.avr ? 0 : 34}, {"name", "sensor"}, {"type", "adc_input"}, {"description", "Light sensor"}};
  if (!options_.avr) {
    sensor["capabilities"] = {{"summary", true}, {"buffer", true}, {"events", false}};
    sensor["sampling"] = {{"interval_ms", options_.sample_interval_ms}, {"buffer_size", options_.buffer_size}};
  }
  pins.push_back(std::move(sensor));
  return {{"device", options_.device}, {"version", "1.2.0"}, {"tools", tools}, {"pins", pins}};
}

}  // namespace mcpud::it
