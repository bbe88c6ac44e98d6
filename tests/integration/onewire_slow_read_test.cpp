// SPDX-License-Identifier: MIT
// A 1-Wire thermometer converts inside the kernel's read (up to 750 ms): here
// its `temperature` file is a FIFO the test feeds only when it chooses, so a
// read hangs for as long as the test likes. Meanwhile other clients, another
// sensor, sampling, a reload and shutdown must all go on; the reply comes when
// the value does, once for every caller that asked during the same read.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>

#include "../fixtures/fake_sysfs.hpp"
#include "support/deadline.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

using mcpud::testing::FakeSysfs;

const std::string kTank = "bus/w1/devices/28-00000a1b2c3d";
const std::string kAttic = "bus/w1/devices/28-0000001a2b3c";

// The thermometer's value file as a FIFO, and the test's end of it.
class SlowThermometer {
 public:
  explicit SlowThermometer(const FakeSysfs& sysfs) : path_(sysfs.path(kTank + "/temperature")) {
    sysfs.write("bus/w1/devices/w1_bus_master1/w1_master_slave_count", "2");
    std::filesystem::create_directories(path_.parent_path());
    EXPECT_EQ(::mkfifo(path_.c_str(), 0600), 0);
  }
  ~SlowThermometer() { close_writer(); }
  SlowThermometer(const SlowThermometer&) = delete;
  SlowThermometer& operator=(const SlowThermometer&) = delete;

  // Waits until mcpud has the FIFO open for reading (a writer can open it
  // without blocking only then) and keeps it open: mcpud's read now hangs.
  bool wait_read_started() {
    return eventually(
        [&] {
          writer_ = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
          return writer_ >= 0;
        },
        10s, 10ms);
  }
  // Ends the conversion: the reading, then end of file.
  void finish(const std::string& millidegrees) {
    const std::string line = millidegrees + "\n";
    EXPECT_EQ(::write(writer_, line.data(), line.size()), static_cast<ssize_t>(line.size()));
    close_writer();
  }

 private:
  void close_writer() {
    if (writer_ >= 0) ::close(writer_);
    writer_ = -1;
  }

  std::filesystem::path path_;
  int writer_ = -1;
};

// The next line from `client`, which must be the reply with that id.
json reply_to(LineClient& client, int id) {
  const auto line = client.read_line(10s);
  if (!line) {
    ADD_FAILURE() << "no reply to request " << id;
    return nullptr;
  }
  json reply = json::parse(*line, nullptr, false);
  EXPECT_EQ(reply.value("id", json()), id) << *line;
  return reply;
}

std::string config(const FakeSysfs& sysfs) {
  return "board = \"linux\"\nsysfs_root = \"" + sysfs.root() + "\"\n" + R"(
[[pins]]
name = "tank"
pin = 130
type = "sensor_input"
onewire = { id = "28-00000a1b2c3d" }

[[pins]]
name = "attic"
pin = 131
type = "sensor_input"
onewire = { id = "28-0000001a2b3c" }
sampling = { interval_ms = 20, buffer_size = 10 }

[[pins]]
name = "room"
pin = 132
type = "sensor_input"
iio = { device = "bme280", channel = "temp" }
sampling = { interval_ms = 20, buffer_size = 10 }
)";
}

class OneWireSlowRead : public ::testing::Test {
 protected:
  void SetUp() override {
    sysfs_.write(sysfs_.iio_device(0, "bme280") + "/in_temp_input", "23125");
    sysfs_.write(kAttic + "/temperature", "30500");  // converts at once
    port_ = daemon_.start_tcp({"--config", daemon_.write_file("w1.toml", config(sysfs_))});
    ASSERT_NE(port_, 0);
    asker_ = LineClient::connect_tcp(port_);
    other_ = LineClient::connect_tcp(port_);
    ASSERT_TRUE(asker_ && other_);
  }

  std::int64_t samples_of(const std::string& pin) {
    return other_->result("get_pin_summary", {{"name", pin}})["samples"].get<std::int64_t>();
  }

  FakeSysfs sysfs_;
  SlowThermometer tank_{sysfs_};
  DaemonProcess daemon_;
  int port_ = 0;
  std::optional<LineClient> asker_;  // waits for the thermometer
  std::optional<LineClient> other_;  // everyone else
};

TEST_F(OneWireSlowRead, OtherClientsPinsAndSamplingGoOnWhileTheThermometerConverts) {
  // The sampled thermometer's values come through the worker too.
  ASSERT_TRUE(eventually([&] { return samples_of("attic") >= 1; }, 10s));
  EXPECT_EQ(other_->result("get_pin_summary", {{"name", "attic"}})["latest"], 30.5);

  ASSERT_TRUE(asker_->send_line(R"({"jsonrpc":"2.0","id":1,"method":"sensor_read","params":{"name":"tank"}})"));
  ASSERT_TRUE(tank_.wait_read_started());

  // All of this is answered while the thermometer's read still hangs.
  EXPECT_EQ(other_->call("ping")["result"], json::object());
  EXPECT_TRUE(other_->result("list_tools").contains("tools"));
  EXPECT_EQ(other_->result("sensor_read", {{"name", "room"}})["value"], 23.125);
  const auto room_samples = samples_of("room");
  EXPECT_TRUE(eventually([&] { return samples_of("room") > room_samples; }, 10s))
      << "the other pin's sampling must go on";
  // The other thermometer waits its turn: the one worker reads one slow
  // sensor at a time.
  const auto attic_samples = samples_of("attic");
  // A second caller shares the read in flight (were it queued as a second
  // read, it would open the FIFO again after this one and never be answered).
  ASSERT_TRUE(other_->send_line(R"({"jsonrpc":"2.0","id":7,"method":"sensor_read","params":{"pin":130}})"));
  ASSERT_TRUE(
      other_->send_line(R"({"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"mcpu://pins/tank"}})"));
  EXPECT_EQ(other_->call("ping", json::object(), 9)["id"], 9) << "the replies to 7 and 8 wait for the value";

  tank_.finish("21500");
  const json reply = reply_to(*asker_, 1);
  EXPECT_EQ(reply["result"],
            (json{{"pin", 130}, {"name", "tank"}, {"value", 21.5}, {"unit", "degC"}, {"quantity", "temperature"}}));
  EXPECT_EQ(reply_to(*other_, 7)["result"]["value"], 21.5);
  const json resource = json::parse(reply_to(*other_, 8)["result"]["contents"][0]["text"].get<std::string>());
  EXPECT_EQ(resource["value"], 21.5);
  EXPECT_EQ(resource["unit"], "degC");
  EXPECT_TRUE(eventually([&] { return samples_of("attic") > attic_samples; }, 10s))
      << "the other thermometer's sampling resumes after the conversion";
}

TEST_F(OneWireSlowRead, ReloadAndShutdownDuringAConversionNeitherHangNorCrash) {
  ASSERT_TRUE(asker_->send_line(R"({"jsonrpc":"2.0","id":1,"method":"sensor_read","params":{"name":"tank"}})"));
  ASSERT_TRUE(tank_.wait_read_started());
  daemon_.signal(SIGHUP);
  ASSERT_TRUE(daemon_.wait_for_log("reloaded:"));
  EXPECT_EQ(other_->call("ping")["result"], json::object());

  tank_.finish("19250");
  EXPECT_EQ(reply_to(*asker_, 1)["result"]["value"], 19.25) << "a read begun before the reload still answers";

  // Stop while a second read hangs.
  ASSERT_TRUE(asker_->send_line(R"({"jsonrpc":"2.0","id":2,"method":"sensor_read","params":{"name":"tank"}})"));
  ASSERT_TRUE(tank_.wait_read_started());
  daemon_.signal(SIGTERM);
  EXPECT_EQ(daemon_.wait_exit(), 0);
}

}  // namespace
}  // namespace mcpud::it
