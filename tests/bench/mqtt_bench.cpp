// SPDX-License-Identifier: MIT
// mcpud-mqtt-bench: round-trip time and pipelined throughput of one JSON-RPC tool
// call through an MQTT broker to an mcpud in fleet mode (MQTT 5 request/response,
// QoS 1 both ways, correlation data matched). Prints RESULT lines in the shape of
// mcpud-loadgen's so run-mqtt-bench.sh can put them next to direct TCP. One
// thread: mcpud's own MQTT client on an io_context. Measurement tool, not a test.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>

#include <unistd.h>

#include "mcpud/core/log.hpp"
#include "mcpud/mqtt/client.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using mcpud::mqtt::Message;

struct Options {
  int port = 1883;
  std::string prefix = "mcpud";
  std::string device = "mcpud-sim";
  std::string label = "mqtt";
  std::size_t requests = 5000;
  std::size_t warmup = 500;
  std::size_t window = 64;
  double seconds = 3.0;
  bool sequential = true;
  bool pipelined = true;
};

std::string request(std::uint64_t id) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
         R"(,"method":"gpio_write","params":{"pin":2,"value":true}})";
}

double percentile(std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto index = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(index, sorted.size() - 1)];
}

class Bench {
 public:
  explicit Bench(const Options& o) : options_(o), client_(io_, client_options(o)) {
    reply_topic_ = "bench/" + std::to_string(::getpid()) + "/replies";
    request_topic_ = o.prefix + "/" + o.device + "/rpc/req";
    client_.on_message([this](const Message& m) { on_reply(m); });
    (void)client_.subscribe(reply_topic_, 1);
    // The device is subscribed to its requests once its status says online.
    (void)client_.subscribe(o.prefix + "/" + o.device + "/status", 1);
    client_.on_connect([this] { connected_ = true; });
  }

  bool connect() {
    client_.start();
    return run_until([&] { return connected_ && online_; }, std::chrono::seconds(10));
  }

  // One request in flight: each timed from publish to the reply's arrival.
  bool sequential() {
    std::vector<double> times;
    times.reserve(options_.requests);
    for (std::size_t i = 0; i < options_.warmup + options_.requests; ++i) {
      const auto start = Clock::now();
      if (!send() || !run_until([&] { return outstanding_.empty(); }, std::chrono::seconds(10))) return false;
      if (i >= options_.warmup)
        times.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    double total = 0;
    for (double t : times) total += t;
    std::printf(
        "RESULT label=%s test=sequential requests=%zu rps=%.0f p50_us=%.1f p90_us=%.1f p99_us=%.1f max_us=%.1f\n",
        options_.label.c_str(), times.size(), 1e6 * static_cast<double>(times.size()) / total, percentile(times, 0.5),
        percentile(times, 0.9), percentile(times, 0.99), times.back());
    return true;
  }

  // `window` requests kept in flight for `seconds`.
  bool pipelined() {
    const auto start = Clock::now();
    const auto end =
        start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options_.seconds));
    std::size_t replies_before = replies_;
    while (Clock::now() < end) {
      while (outstanding_.size() < options_.window)
        if (!send()) return false;
      io_.run_one_for(std::chrono::milliseconds(100));
    }
    const auto elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const auto done = replies_ - replies_before;
    if (!run_until([&] { return outstanding_.empty(); }, std::chrono::seconds(10))) return false;
    std::printf("RESULT label=%s test=pipelined connections=1 window=%zu seconds=%.2f replies=%zu rps=%.0f\n",
                options_.label.c_str(), options_.window, elapsed, done, static_cast<double>(done) / elapsed);
    return true;
  }

  bool ok() const { return bad_replies_ == 0; }

 private:
  static mcpud::mqtt::Options client_options(const Options& o) {
    mcpud::mqtt::Options c;
    c.port = static_cast<std::uint16_t>(o.port);
    c.client_id = "mcpud-mqtt-bench-" + std::to_string(::getpid());
    c.max_queued = 4096;
    return c;
  }

  bool send() {
    const auto id = next_id_++;
    outstanding_[std::to_string(id)] = Clock::now();
    return client_.publish(Message{request_topic_, request(id), 1, false, reply_topic_, std::to_string(id)})
        .has_value();
  }

  void on_reply(const Message& m) {
    if (m.topic != reply_topic_) {
      online_ = m.payload == "online";
      return;
    }
    if (outstanding_.erase(m.correlation_data) == 0) return;
    ++replies_;
    if (m.payload.find("\"result\"") == std::string::npos && bad_replies_++ == 0)
      std::fprintf(stderr, "mqtt-bench: unexpected reply %s\n", m.payload.c_str());
  }

  template <class Condition>
  bool run_until(Condition done, Clock::duration limit) {
    const auto deadline = Clock::now() + limit;
    while (!done()) {
      if (Clock::now() > deadline) return false;
      io_.run_one_for(std::chrono::milliseconds(100));
    }
    return true;
  }

  Options options_;
  boost::asio::io_context io_;
  mcpud::mqtt::Client client_;
  std::string reply_topic_, request_topic_;
  std::map<std::string, Clock::time_point> outstanding_;
  std::uint64_t next_id_ = 1;
  std::size_t replies_ = 0;
  std::size_t bad_replies_ = 0;
  bool connected_ = false;
  bool online_ = false;
};

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view name = argv[i];
    const char* value = argv[i + 1];
    if (name == "--port")
      o.port = std::atoi(value);
    else if (name == "--prefix")
      o.prefix = value;
    else if (name == "--device")
      o.device = value;
    else if (name == "--label")
      o.label = value;
    else if (name == "--requests")
      o.requests = std::strtoul(value, nullptr, 10);
    else if (name == "--warmup")
      o.warmup = std::strtoul(value, nullptr, 10);
    else if (name == "--window")
      o.window = std::clamp<std::size_t>(std::strtoul(value, nullptr, 10), 1, 1000);
    else if (name == "--seconds")
      o.seconds = std::atof(value);
    else if (name == "--tests") {
      o.sequential = std::string_view(value).find("sequential") != std::string_view::npos;
      o.pipelined = std::string_view(value).find("pipelined") != std::string_view::npos;
    } else
      return false;
  }
  return argc % 2 == 1 && o.port > 0 && o.port < 65536 && o.requests > 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse(argc, argv, options)) {
    std::fprintf(
        stderr,
        "usage: mcpud-mqtt-bench --port BROKER_PORT [--device ID] [--prefix mcpud] [--label mqtt]\n"
        "       [--tests sequential,pipelined] [--requests 5000] [--warmup 500] [--window 64] [--seconds 3]\n");
    return 2;
  }
  mcpud::log::set_level(mcpud::log::Level::Warn);
  Bench bench(options);
  if (!bench.connect()) {
    std::fprintf(stderr, "mqtt-bench: no broker on 127.0.0.1:%d or device %s not online\n", options.port,
                 options.device.c_str());
    return 1;
  }
  if (options.sequential && !bench.sequential())
    return std::fprintf(stderr, "mqtt-bench: sequential run timed out\n"), 1;
  if (options.pipelined && !bench.pipelined()) return std::fprintf(stderr, "mqtt-bench: pipelined run timed out\n"), 1;
  return bench.ok() ? 0 : 1;
}
