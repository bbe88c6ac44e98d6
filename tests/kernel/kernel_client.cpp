// SPDX-License-Identifier: MIT
// The test client that runs inside the QEMU guest: talks to mcpud over TCP or the
// USB serial gadget's host side, drives gpio-sim and reads iio_dummy through sysfs,
// sets the i2c-stub register lm75 reads,
// and prints one "KCHECK PASS name" or "KCHECK FAIL name: why" line per check.
//
//   kernel-client hw PID PORT SIM_GPIOCHIP_DIR IIO_DEVICE_DIR IIO_CONFIGFS_DIR GPIO_API   (v1 or v2)
//   kernel-client tty TTY SIM_GPIOCHIP_DIR
//   kernel-client i2c PORT BUS   (i2c-stub chips at 0x20 and 0x50, lm75 bound at 0x48)
//   kernel-client sensors PORT BUS IIO_DEVICE_DIR HWMON_DIR   (after i2c, on the same mcpud)
#include <fcntl.h>
#include <linux/gpio.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <dirent.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
int failures = 0;

void check(const std::string& name, bool ok, const std::string& detail = "") {
  if (ok)
    std::printf("KCHECK PASS %s\n", name.c_str());
  else
    std::printf("KCHECK FAIL %s: %s\n", name.c_str(), detail.c_str());
  std::fflush(stdout);
  failures += ok ? 0 : 1;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::string value;
  std::getline(in, value);
  return value;
}

bool write_file(const std::string& path, const std::string& value) {
  std::ofstream out(path);
  out << value;
  out.flush();
  return static_cast<bool>(out);
}

// Polls `condition` until it holds or `seconds` pass.
bool eventually(const std::function<bool()>& condition, int seconds = 10) {
  const auto deadline = Clock::now() + std::chrono::seconds(seconds);
  while (!condition()) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

// One JSON-RPC line out, one line back, over any fd (socket or tty).
class Peer {
 public:
  explicit Peer(int fd) : fd_(fd) {}
  ~Peer() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool ok() const { return fd_ >= 0; }

  json call(const std::string& method, const json& params = json::object(), int timeout_s = 10) {
    const json request = {{"jsonrpc", "2.0"}, {"id", ++id_}, {"method", method}, {"params", params}};
    const std::string line = request.dump() + "\n";
    if (::write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
      return json{{"client_error", "write failed"}};
    const auto deadline = Clock::now() + std::chrono::seconds(timeout_s);
    while (Clock::now() < deadline) {
      const auto newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        auto text = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        if (!text.empty() && text.back() == '\r') text.pop_back();
        auto reply = json::parse(text, nullptr, false);
        if (reply.is_object() && reply.value("id", json()) == json(id_)) return reply;
        continue;  // a notification or noise: keep reading
      }
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 200) <= 0) continue;
      char chunk[4096];
      const auto n = ::read(fd_, chunk, sizeof chunk);
      if (n <= 0) return json{{"client_error", "connection closed"}};
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
    return json{{"client_error", "no reply to " + method}};
  }
  json result(const std::string& method, const json& params = json::object()) {
    auto reply = call(method, params);
    return reply.contains("result") ? reply["result"] : json{{"failed", reply}};
  }

 private:
  int fd_;
  int id_ = 0;
  std::string buffer_;
};

int connect_tcp(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

int open_raw_tty(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return -1;
  termios tio{};
  tcgetattr(fd, &tio);
  cfmakeraw(&tio);
  tcsetattr(fd, TCSANOW, &tio);
  return fd;
}

std::string sim_line(const std::string& chip_dir, int offset, const std::string& attr) {
  return chip_dir + "/sim_gpio" + std::to_string(offset) + "/" + attr;
}

double round_significant(double value, int digits) {
  if (value == 0) return 0;
  const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(value)))));
  return std::round(value * scale) / scale;
}

// gpio_write drives gpio-sim's line 17 (the header's GPIO17).
void check_gpio_write(Peer& peer, const std::string& chip_dir, const std::string& prefix) {
  for (const bool level : {true, false, true}) {
    const auto reply = peer.result("gpio_write", {{"pin", 17}, {"value", level}});
    const bool seen = eventually([&] { return read_file(sim_line(chip_dir, 17, "value")) == (level ? "1" : "0"); });
    check(prefix + "gpio_write_" + (level ? "high" : "low"), seen,
          "reply " + reply.dump() + ", sim value " + read_file(sim_line(chip_dir, 17, "value")));
  }
}

// A pull change on line 27 (active-low button) is read back and becomes an edge event.
void check_input_and_edges(Peer& peer, const std::string& chip_dir) {
  const auto pull = sim_line(chip_dir, 27, "pull");
  const auto level = [&] { return peer.result("gpio_read", {{"pin", 27}}).value("value", json()); };
  check("bias_pull_up_applied", read_file(pull) == "pull-up", "pull is " + read_file(pull));
  check("gpio_read_idle_is_false", level() == json(false), "active-low input with pull-up should read false");
  write_file(pull, "pull-down");
  check("gpio_read_sees_pull_down", eventually([&] { return level() == json(true); }), "gpio_read did not become true");
  json events;
  const bool rising = eventually([&] {
    events = peer.result("get_pin_events", {{"pin", 27}, {"since", 0}});
    for (const auto& e : events.value("events", json::array())) {
      if (e.value("type", "") == "rising") return true;
    }
    return false;
  });
  check("edge_event_rising", rising, events.dump());
  write_file(pull, "pull-up");
  const bool falling = eventually([&] {
    events = peer.result("get_pin_events", {{"pin", 27}, {"since", 0}});
    for (const auto& e : events.value("events", json::array())) {
      if (e.value("type", "") == "falling") return true;
    }
    return false;
  });
  check("edge_event_falling", falling, events.dump());
}

// The debounce period the kernel applies to line OFFSET of the chip (its line
// info, as gpioinfo shows it): 0 when it has none, -1 when the chip cannot be asked.
long kernel_debounce_us(const std::string& chip_dir, unsigned offset) {
  const auto chip = "/dev/" + chip_dir.substr(chip_dir.rfind('/') + 1);
  const int fd = ::open(chip.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  gpio_v2_line_info info{};
  info.offset = offset;
  const int status = ::ioctl(fd, GPIO_V2_GET_LINEINFO_IOCTL, &info);
  ::close(fd);
  if (status < 0) return -1;
  for (unsigned i = 0; i < info.num_attrs; ++i) {
    if (info.attrs[i].id == GPIO_V2_LINE_ATTR_ID_DEBOUNCE) return info.attrs[i].debounce_period_us;
  }
  return 0;
}

// Line 22 (debounce_ms = 300): a burst of three pull changes reaches
// get_pin_events as one rising edge, a change well after it as a falling edge.
// Who debounces differs and is checked: with libgpiod v2 the kernel (the line
// carries the period), with v1 mcpud itself (the kernel's line has none).
void check_debounce(Peer& peer, const std::string& chip_dir, const std::string& gpio_api) {
  const auto pull = sim_line(chip_dir, 22, "pull");
  const auto events = [&] {
    return peer.result("get_pin_events", {{"pin", 22}, {"since", 0}}).value("events", json::array());
  };
  const auto before = events().size();
  for (const char* level : {"pull-up", "pull-down", "pull-up"}) write_file(pull, level);
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));  // four debounce periods
  auto seen = events();
  check("debounce_burst_is_one_rising_edge", seen.size() == before + 1 && seen.back().value("type", "") == "rising",
        seen.dump());
  write_file(pull, "pull-down");
  const bool falling = eventually([&] {
    seen = events();
    return seen.size() == before + 2 && seen.back().value("type", "") == "falling";
  });
  check("debounce_later_edge_kept", falling, seen.dump());
  const long period = kernel_debounce_us(chip_dir, 22);
  if (gpio_api == "v2")
    check("debounce_by_kernel_v2", period == 300000,
          "the kernel's debounce period of line 22 is " + std::to_string(period) + " us, not 300000");
  else
    check("debounce_by_mcpud_v1", period == 0,
          "libgpiod v1 cannot ask the kernel to debounce, yet line 22 has " + std::to_string(period) + " us");
}

void check_adc(Peer& peer, const std::string& iio_dir) {
  const double raw = std::stod(read_file(iio_dir + "/in_voltage0_raw"));
  const double offset = std::stod(read_file(iio_dir + "/in_voltage0_offset"));
  const double scale = std::stod(read_file(iio_dir + "/in_voltage0_scale"));
  const auto reply = peer.result("adc_read", {{"pin", 100}});
  check("adc_read_raw", reply.value("value", -1.0) == raw, reply.dump() + " vs raw " + std::to_string(raw));
  const double volts = round_significant((raw + offset) * scale / 1000.0, 6);
  const double got = reply.value("volts", -1.0);
  check("adc_read_volts", std::fabs(got - volts) <= std::fabs(volts) * 1e-4,
        reply.dump() + " vs (raw+offset)*scale/1000 = " + std::to_string(volts));
  json summary;
  const bool sampled = eventually([&] {
    summary = peer.result("get_pin_summary", {{"pin", 100}});
    return summary.value("samples", 0) >= 2 && summary.value("latest", -1.0) == raw;
  });
  check("adc_sampled", sampled, summary.dump());
}

// Duplicates mcpud's line request fds (v1 line handles, v2 line requests; not
// v1 event fds, which hold inputs), so led's level can be read after exit.
std::vector<int> borrow_line_fds(int pid) {
  std::vector<int> borrowed;
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) return borrowed;
  const std::string dir = "/proc/" + std::to_string(pid) + "/fd";
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* entry = ::readdir(d)) {
      char target[256] = {};
      const std::string link = dir + "/" + entry->d_name;
      if (::readlink(link.c_str(), target, sizeof target - 1) <= 0) continue;
      const std::string t = target;
      if (t == "anon_inode:gpio-linehandle" || t == "anon_inode:gpio-line") {
        const int fd = static_cast<int>(::syscall(SYS_pidfd_getfd, pidfd, std::atoi(entry->d_name), 0));
        if (fd >= 0) borrowed.push_back(fd);
      }
    }
    ::closedir(d);
  }
  ::close(pidfd);
  return borrowed;
}

// led (safe_value = true) is low; SIGTERM must leave it high. gpio-sim resets a
// released line to its pull, so the line is kept requested through a borrowed fd.
void check_safe_value(Peer& peer, int pid, const std::string& chip_dir) {
  peer.result("gpio_write", {{"pin", 17}, {"value", false}});
  const auto line_fds = borrow_line_fds(pid);
  check("borrow_output_line_fd", !line_fds.empty(), "no gpio line fd found in /proc/" + std::to_string(pid) + "/fd");
  ::kill(pid, SIGTERM);
  const bool exited = eventually([&] { return ::kill(pid, 0) != 0; }, 20);
  check("sigterm_exits", exited, "mcpud still running 20 s after SIGTERM");
  const auto value = read_file(sim_line(chip_dir, 17, "value"));
  check("safe_value_driven_on_sigterm", value == "1", "led is " + value + " after exit, safe_value is true");
  for (const int fd : line_fds) ::close(fd);
}

// The ADC device is removed under mcpud: adc_read fails cleanly, mcpud serves on.
void check_adc_removed(Peer& peer, const std::string& iio_configfs_dir) {
  check("iio_device_removed", ::rmdir(iio_configfs_dir.c_str()) == 0, "rmdir " + iio_configfs_dir + " failed");
  const auto reply = peer.call("adc_read", {{"pin", 100}});
  const auto code = reply.contains("error") ? reply["error"].value("data", json::object()).value("code", "") : "";
  check("adc_read_after_removal_is_an_error", code == "DEVICE_DISCONNECTED", reply.dump());
  check("serves_after_adc_removal", peer.result("gpio_read", {{"pin", 27}}).contains("value"), "gpio_read failed");
}

int run_hw(int pid, int port, const std::string& chip_dir, const std::string& iio_dir,
           const std::string& iio_configfs_dir, const std::string& gpio_api) {
  Peer peer(connect_tcp(port));
  check("tcp_connect", peer.ok(), "cannot connect to 127.0.0.1:" + std::to_string(port));
  if (!peer.ok()) return 1;
  check_gpio_write(peer, chip_dir, "");
  json button;
  for (const auto& pin : peer.result("list_tools").value("pins", json::array())) {
    if (pin.value("name", "") == "button") button = pin;
  }
  check(
      "list_tools_button_has_events",
      button.contains("capabilities") && button["capabilities"].value("events", false) && !button.contains("sampling"),
      button.dump());
  check_input_and_edges(peer, chip_dir);
  check_debounce(peer, chip_dir, gpio_api);
  check_adc(peer, iio_dir);
  check_adc_removed(peer, iio_configfs_dir);
  check_safe_value(peer, pid, chip_dir);
  return failures == 0 ? 0 : 1;
}

// A client drives led (safe_value = true, so on_release = "safe") low and
// disconnects: mcpud drives it high again, as gpio-sim's side of the line shows.
int run_release(int port, const std::string& chip_dir) {
  const auto value = [&] { return read_file(sim_line(chip_dir, 17, "value")); };
  {
    Peer peer(connect_tcp(port));
    check("release_connect", peer.ok(), "cannot connect to 127.0.0.1:" + std::to_string(port));
    if (!peer.ok()) return 1;
    const auto reply = peer.result("gpio_write", {{"pin", 17}, {"value", false}});
    check("release_driven_low", eventually([&] { return value() == "0"; }), reply.dump() + ", led is " + value());
  }  // the client goes
  check("release_on_disconnect_kernel_side", eventually([&] { return value() == "1"; }, 5),
        "led is " + value() + " after the client that drove it low left");
  return failures == 0 ? 0 : 1;
}

int run_tty(const std::string& tty, const std::string& chip_dir, const std::string& tag) {
  Peer peer(open_raw_tty(tty));
  check(tag + "tty_open", peer.ok(), "cannot open " + tty);
  if (!peer.ok()) return 1;
  // After a replug the device side reopens its tty within a second or two: until
  // then requests go nowhere, so ask again until one is answered.
  json info;
  eventually(
      [&] {
        info = peer.call("get_info", json::object(), 1);
        if (!info.contains("result")) return false;
        info = info["result"];
        return true;
      },
      20);
  check(tag + "tty_get_info", info.value("device", "") == "kernel-test", info.dump());
  const auto tools = peer.result("list_tools");
  check(tag + "tty_list_tools", tools.dump().find("gpio_write") != std::string::npos, tools.dump().substr(0, 300));
  check_gpio_write(peer, chip_dir, tag + "tty_");
  return failures == 0 ? 0 : 1;
}

// The I2C tools on i2c-stub's bus: 0x20 writable, 0x50 read-only, 0x48 owned by lm75.
std::string error_of(const json& reply) {
  return reply.contains("error") ? reply["error"].value("message", "") + " [" +
                                       reply["error"].value("data", json::object()).value("code", "") + "]"
                                 : "no error: " + reply.dump();
}

bool refused_with(const json& reply, const std::string& code, const std::string& text) {
  const auto error = error_of(reply);
  return error.find("[" + code + "]") != std::string::npos && error.find(text) != std::string::npos;
}

void check_i2c_scan(Peer& peer, int bus) {
  const auto found = peer.result("i2c_scan", {{"bus", bus}});
  std::map<int, json> rows;
  for (const auto& row : found.value("addresses", json::array())) rows[row["address"].get<int>()] = row;
  check("i2c_scan_finds_stub_chips",
        rows.size() == 3 && rows[0x20]["state"] == "answered" && rows[0x50]["state"] == "answered", found.dump());
  check("i2c_scan_names_driver", rows[0x48]["state"] == "claimed" && rows[0x48]["driver"] == "lm75", found.dump());
}

void check_i2c_round_trips(Peer& peer, int bus) {
  const json at = {{"bus", bus}, {"address", 0x20}};
  const auto with = [&](json more) {
    json args = at;
    args.update(more);
    return args;
  };
  peer.result("i2c_write", with({{"register", 0x10}, {"value", 0xA5}}));
  auto read = peer.result("i2c_read", with({{"register", 0x10}}));
  check("i2c_byte_round_trip", read.value("value", -1) == 0xA5, read.dump());
  peer.result("i2c_write", with({{"mode", "word"}, {"register", 0x20}, {"value", 0xBEEF}}));
  read = peer.result("i2c_read", with({{"mode", "word"}, {"register", 0x20}}));
  check("i2c_word_round_trip", read.value("value", -1) == 0xBEEF && read.value("hex", "") == "efbe", read.dump());
  peer.result("i2c_write", with({{"mode", "i2c_block"}, {"register", 0x30}, {"data", {1, 2, 3, 4, 5}}}));
  read = peer.result("i2c_read", with({{"mode", "i2c_block"}, {"register", 0x30}, {"length", 5}}));
  check("i2c_block_round_trip", read.value("hex", "") == "0102030405", read.dump());
  const auto wrote = peer.result("i2c_write", with({{"mode", "block"}, {"register", 0x40}, {"data", {9, 8, 7}}}));
  read = peer.result("i2c_read", with({{"mode", "block"}, {"register", 0x40}}));
  check("i2c_smbus_block_round_trip", read.value("hex", "") == "090807", wrote.dump() + " " + read.dump());
  // i2c-stub is an SMBus-only adapter: a plain transfer is refused by what it can do.
  const auto plain = peer.call("i2c_read", with({{"mode", "transfer"}, {"length", 2}}));
  check("i2c_transfer_needs_plain_i2c", refused_with(plain, "READ_ERROR", "cannot do plain I2C transfers"),
        plain.dump());
}

void check_i2c_refusals(Peer& peer, int bus) {
  auto refused = peer.call("i2c_write", {{"bus", bus}, {"address", 0x50}, {"register", 0x10}, {"value", 0x5A}});
  const auto after = peer.result("i2c_read", {{"bus", bus}, {"address", 0x50}, {"register", 0x10}});
  check("i2c_read_only_refused",
        refused_with(refused, "NOT_AUTHORIZED", "is read-only: set write = true at i2c.buses[0].devices[1]") &&
            after.value("value", -1) == 0,
        refused.dump() + " " + after.dump());
  refused = peer.call("i2c_read", {{"bus", bus}, {"address", 0x48}, {"register", 0}});
  check(
      "i2c_driver_owned_refused",
      refused_with(refused, "BUSY", "kernel driver 'lm75'") && refused.dump().find("force = true") != std::string::npos,
      refused.dump());
  refused = peer.call("i2c_read", {{"bus", bus}, {"address", 0x51}});
  check("i2c_unconfigured_refused", refused_with(refused, "NOT_AUTHORIZED", "is not configured"), refused.dump());
}

int run_i2c(int port, int bus) {
  Peer peer(connect_tcp(port));
  if (!peer.ok()) {
    check("i2c_connect", false, "cannot connect");
    return 1;
  }
  check_i2c_scan(peer, bus);
  check_i2c_round_trips(peer, bus);
  check_i2c_refusals(peer, bus);
  return failures == 0 ? 0 : 1;
}

// sensor_input pins on the same mcpud: pin 110 is iio_dummy's accel_x, pin 111
// the lm75 at 0x48 through hwmon.
double iio_attribute(const std::string& dir, const std::string& name, double fallback) {
  for (const std::string owner : {"accel_x", "accel"}) {
    const auto text = read_file(dir + "/in_" + owner + "_" + name);
    if (!text.empty()) return std::stod(text);
  }
  return fallback;
}

void check_iio_acceleration(Peer& peer, const std::string& iio_dir) {
  const double raw = std::stod(read_file(iio_dir + "/in_accel_x_raw"));
  const double expected =
      round_significant((raw + iio_attribute(iio_dir, "offset", 0)) * iio_attribute(iio_dir, "scale", 1), 6);
  const auto reply = peer.result("sensor_read", {{"pin", 110}});
  check("sensor_iio_accel_value", std::fabs(reply.value("value", -1e9) - expected) <= std::fabs(expected) * 1e-4,
        reply.dump() + " vs (raw+offset)*scale = " + std::to_string(expected));
  check("sensor_iio_accel_unit", reply.value("unit", "") == "m/s^2" && reply.value("quantity", "") == "acceleration",
        reply.dump());
}

// Sets the stub chip's register behind lm75, the way the sensor would: an SMBus word
// goes low byte first, and lm75 reads the register big-endian, so 0x8019 is 0x1980.
bool set_stub_word(int bus, int address, int reg, int value) {
  const int fd = ::open(("/dev/i2c-" + std::to_string(bus)).c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return false;
  i2c_smbus_data data{};
  data.word = static_cast<std::uint16_t>(value);
  i2c_smbus_ioctl_data args{I2C_SMBUS_WRITE, static_cast<std::uint8_t>(reg), I2C_SMBUS_WORD_DATA, &data};
  // FORCE: lm75 owns the address; this is the test standing in for the chip.
  const bool ok = ::ioctl(fd, I2C_SLAVE_FORCE, address) == 0 && ::ioctl(fd, I2C_SMBUS, &args) == 0;
  ::close(fd);
  return ok;
}

void check_hwmon_lm75(Peer& peer, int bus, const std::string& hwmon_dir) {
  // 0x1980 is 25.5 degC (1/256 degC per bit), exact at lm75's 9-bit resolution.
  check("lm75_register_written", set_stub_word(bus, 0x48, 0x00, 0x8019), "ioctl on /dev/i2c-" + std::to_string(bus));
  const auto sysfs = read_file(hwmon_dir + "/temp1_input");
  check("lm75_sysfs_reads_register", sysfs == "25500", hwmon_dir + "/temp1_input is " + sysfs);
  const auto reply = peer.result("sensor_read", {{"pin", 111}});
  check("sensor_hwmon_lm75_degc",
        reply.value("value", -1.0) == 25.5 && reply.value("unit", "") == "degC" &&
            reply.value("quantity", "") == "temperature",
        reply.dump());
  // A second value proves each read goes to the chip, not to a cached one.
  set_stub_word(bus, 0x48, 0x00, 0x00e7);  // 0xe700: -25 degC
  const auto cold = peer.result("sensor_read", {{"pin", 111}});
  check("sensor_hwmon_lm75_follows_register", cold.value("value", 0.0) == -25.0, cold.dump());
}

void check_board_health(Peer& peer) {
  const auto reply = peer.call("board_health");
  const auto health = reply.value("result", json::object());
  check("board_health_answers",
        !reply.contains("error") && health.contains("load") && health.contains("memory") &&
            health["memory"].value("total_bytes", 0) > 0 && health.value("uptime_s", 0.0) > 0,
        reply.dump());
}

int run_sensors(int port, int bus, const std::string& iio_dir, const std::string& hwmon_dir) {
  Peer peer(connect_tcp(port));
  if (!peer.ok()) {
    check("sensors_connect", false, "cannot connect");
    return 1;
  }
  check_iio_acceleration(peer, iio_dir);
  check_hwmon_lm75(peer, bus, hwmon_dir);
  check_board_health(peer);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 7 && args[0] == "hw")
    return run_hw(std::stoi(args[1]), std::stoi(args[2]), args[3], args[4], args[5], args[6]);
  if (args.size() == 4 && args[0] == "tty") return run_tty(args[1], args[2], args[3]);
  if (args.size() == 3 && args[0] == "release") return run_release(std::stoi(args[1]), args[2]);
  if (args.size() == 3 && args[0] == "i2c") return run_i2c(std::stoi(args[1]), std::stoi(args[2]));
  if (args.size() == 5 && args[0] == "sensors")
    return run_sensors(std::stoi(args[1]), std::stoi(args[2]), args[3], args[4]);
  std::fprintf(
      stderr,
      "usage: kernel-client hw PID PORT SIM_CHIP_DIR IIO_DIR IIO_CONFIGFS_DIR GPIO_API | tty TTY SIM_CHIP_DIR TAG | "
      "release PORT SIM_CHIP_DIR | i2c PORT BUS | sensors PORT BUS IIO_DIR HWMON_DIR\n");
  return 2;
}
