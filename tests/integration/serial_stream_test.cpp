// SPDX-License-Identifier: MIT
// The serial tool set under stress and failure, through the real mcpud: a fast
// log read without losing a byte, a burst bigger than the ring buffer, the
// device unplugged mid-read, ports held by others, the allow list and the
// SERIAL_MCP_* environment.

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <thread>

#include "serial_fixture.hpp"

namespace mcpud::it {
namespace {

// Sets an environment variable for the daemon started while it lives.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
  ~ScopedEnv() { ::unsetenv(name_); }

 private:
  const char* name_;
};

TEST_F(SerialTest, AFastLogIsReadCompletelyInOrder) {
  SerialPeer peer(link("ttyLOG"));
  start();
  const auto id = connect(peer);
  std::string log;
  for (int i = 1; i <= 40000; ++i) log += "log line " + std::to_string(i) + "\n";
  std::thread device([&] { EXPECT_TRUE(peer.write(log, 60s)); });
  std::string received;
  std::uint64_t lost = 0;
  const Deadline deadline(60s);
  while (received.size() < log.size() && !deadline.expired()) {
    const json read = result("serial_read", {{"session_id", id}, {"max_bytes", 65536}, {"timeout_ms", 2000}});
    received += read.value("data", "");
    lost += read.value("bytes_lost", 0u);
  }
  device.join();
  EXPECT_EQ(lost, 0u);
  ASSERT_EQ(received.size(), log.size());
  EXPECT_TRUE(received == log) << "the log came back altered";
  EXPECT_EQ(session_info(id)["bytes_received"], log.size());
}

TEST_F(SerialTest, ABurstBiggerThanTheRingBufferKeepsTheNewestBytesAndCountsTheRest) {
  SerialPeer peer(link("ttyBURST"));
  start("buffer_bytes = 4096");
  const auto id = connect(peer);
  EXPECT_EQ(session_info(id)["buffer_bytes"], 4096);
  std::string burst;
  for (int i = 0; burst.size() < 100000; ++i) burst += std::to_string(i) + ",";
  ASSERT_TRUE(device_sends(peer, id, burst));
  const json read = result("serial_read", {{"session_id", id}, {"max_bytes", 65536}});
  EXPECT_EQ(read["bytes_read"], 4096);
  EXPECT_EQ(read["data"], burst.substr(burst.size() - 4096));
  EXPECT_EQ(read["bytes_lost"], burst.size() - 4096);
  EXPECT_EQ(session_info(id)["bytes_lost"], burst.size() - 4096);
  // Reported once per loss: the next read starts clean.
  ASSERT_TRUE(peer.write("more"));
  EXPECT_EQ(result("serial_read", {{"session_id", id}, {"timeout_ms", 5000}})["bytes_lost"], 0);
}

TEST_F(SerialTest, UnplugMidReadGivesDeviceDisconnectedAndReleasesThePort) {
  SerialPeer peer(link("ttyUSBX"));
  start();
  const auto id = connect(peer);
  const int pending = send_request("serial_read", {{"session_id", id}, {"timeout_ms", 60000}});
  ASSERT_TRUE(eventually([&] { return session_info(id).value("pending_reads", 0) == 1; }, 10s));
  // the pending read's reply comes first on this connection, so ask on another
  peer.unplug();
  const json read = reply_to(pending);
  EXPECT_TRUE(is_error(read, -32012, "DEVICE_DISCONNECTED")) << read.dump();
  EXPECT_TRUE(is_error(call("serial_send", {{"session_id", id}, {"data", "x"}}), -32012, "DEVICE_DISCONNECTED"));
  EXPECT_TRUE(is_error(call("serial_read", {{"session_id", id}}), -32012, "DEVICE_DISCONNECTED"));
  const json info = session_info(id);
  EXPECT_EQ(info["state"], "disconnected");
  EXPECT_TRUE(info.contains("disconnect_reason"));
  const json closed = result("serial_disconnect", {{"session_id", id}});
  EXPECT_TRUE(contains(closed["message"], "disconnected"));
  EXPECT_TRUE(daemon_.running());
}

TEST_F(SerialTest, BytesBufferedBeforeAnUnplugCanStillBeRead) {
  SerialPeer peer(link("ttyLAST"));
  start();
  const auto id = connect(peer);
  ASSERT_TRUE(device_sends(peer, id, "panic: last words"));
  peer.unplug();
  ASSERT_TRUE(eventually([&] { return session_info(id).value("state", "") == "disconnected"; }, 10s));
  const json read = result("serial_read", {{"session_id", id}});
  EXPECT_EQ(read["data"], "panic: last words");
  EXPECT_EQ(read["device_disconnected"], true);
  EXPECT_TRUE(is_error(call("serial_read", {{"session_id", id}}), -32012, "DEVICE_DISCONNECTED"));
}

TEST_F(SerialTest, ASendToADeviceThatStopsReadingTimesOutAndSaysHowMuchWent) {
  SerialPeer peer(link("ttySTALL"));
  start();
  const auto id = connect(peer);
  // The device never reads: once the kernel's buffers are full a send cannot finish.
  const std::string chunk(30000, 'x');
  json reply;
  for (int i = 0; i < 100 && !reply.contains("error"); ++i) {
    reply = call("serial_send", {{"session_id", id}, {"data", chunk}, {"timeout_ms", 300}});
  }
  ASSERT_TRUE(is_error(reply, -32013, "TIMEOUT")) << reply.dump();
  EXPECT_TRUE(contains(reply["error"]["message"], "not draining"));
  EXPECT_EQ(result("get_info", json::object())["device"], "mcpud-sim");
  // The reader is unaffected by the cancelled write.
  ASSERT_TRUE(peer.write("still here"));
  EXPECT_EQ(result("serial_read", {{"session_id", id}, {"timeout_ms", 5000}})["data"], "still here");
  // Closing with output stuck in the driver drops it rather than blocking the daemon.
  EXPECT_EQ(result("serial_disconnect", {{"session_id", id}})["success"], true);
  EXPECT_EQ(result("get_info", json::object())["device"], "mcpud-sim");
}

TEST_F(SerialTest, APortOpenInASessionOrLockedByAnotherProgramIsRefused) {
  SerialPeer peer(link("ttyBUSY"));
  SerialPeer other(link("ttyLOCK"));
  // The ptys by their own names too, to open the same device under another name.
  start_with({.lines = "allowed_ports = [\"" + daemon_.temp_dir().path().string() + "/tty*\", \"/dev/pts/*\"]",
              .allow_test_ptys = false});
  const auto id = connect(peer);
  const json again = call("serial_connect", {{"port", peer.link()}});
  EXPECT_TRUE(is_error(again, -32031, "PORT_ALREADY_IN_USE"));
  EXPECT_TRUE(contains(again["error"]["message"], id));
  // The same device under its other name is the same port.
  EXPECT_TRUE(is_error(call("serial_connect", {{"port", peer.slave()}}), -32031, "PORT_ALREADY_IN_USE"));

  const int fd = ::open(other.slave().c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  EXPECT_TRUE(is_error(call("serial_connect", {{"port", other.link()}}), -32031, "PORT_ALREADY_IN_USE"));
  ::close(fd);
  EXPECT_FALSE(connect(other).empty()) << "the port is free once the other program lets go";
}

TEST_F(SerialTest, APortServedByTheTtyListenerIsRefusedAndItsListenerIsUndisturbed) {
  SerialPeer peer(link("ttyGS"));
  start("", {"--tty", peer.link() + ":115200"});
  ASSERT_TRUE(daemon_.wait_for_log("serving MCP/U on " + peer.link()));
  const json refused = call("serial_connect", {{"port", peer.link()}});
  EXPECT_TRUE(is_error(refused, -32031, "PORT_ALREADY_IN_USE")) << refused.dump();
  ASSERT_TRUE(peer.write("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"get_info\"}\n"));
  const std::string reply = peer.read(30, 10s);
  EXPECT_TRUE(contains(reply, "\"id\":7"));
}

TEST_F(SerialTest, TheAllowListFromTheEnvironmentWinsOverTheConfig) {
  SerialPeer allowed(link("ttyOK1"));
  SerialPeer denied(link("ttyNO1"));
  ScopedEnv env("SERIAL_MCP_ALLOWED_PORTS", (daemon_.temp_dir().path().string() + "/ttyOK*, /dev/ttyACM*").c_str());
  start_with({.lines = "allowed_ports = [\"/dev/ttyUSB*\"]", .allow_test_ptys = false});
  EXPECT_FALSE(connect(allowed).empty());
  const json refused = call("serial_connect", {{"port", denied.link()}});
  EXPECT_TRUE(is_error(refused, -32020, "NOT_AUTHORIZED")) << refused.dump();
  EXPECT_TRUE(contains(refused["error"]["message"], "/dev/ttyACM*"));
}

TEST_F(SerialTest, DefaultBaudAndTimeoutComeFromTheEnvironmentOverTheConfig) {
  SerialPeer peer(link("ttyENV"));
  ScopedEnv baud("SERIAL_MCP_DEFAULT_BAUD", "57600");
  ScopedEnv timeout("SERIAL_MCP_DEFAULT_TIMEOUT_MS", "250");
  start("default_baud = 9600\ndefault_timeout_ms = 50");
  const json opened = result("serial_connect", {{"port", peer.link()}});
  EXPECT_EQ(opened["baud"], 57600);
  EXPECT_EQ(opened["timeout_ms"], 250);
}

TEST_F(SerialTest, ConfigDefaultsApplyWithoutEnvironment) {
  SerialPeer peer(link("ttyCFG"));
  start("default_baud = 9600\ndefault_timeout_ms = 50\nnewline = \"\\r\\n\"");
  const json opened = result("serial_connect", {{"port", peer.link()}});
  EXPECT_EQ(opened["baud"], 9600);
  EXPECT_EQ(opened["timeout_ms"], 50);
  EXPECT_EQ(opened["newline"], "\r\n");
}

TEST_F(SerialTest, AReloadChangesTheAllowListAndOpenSessionsStayUp) {
  SerialPeer open_before(link("ttyKEEP"));
  SerialPeer later(link("ttyNEW"));
  start_with({.lines = "allowed_ports = [\"" + open_before.link() + "\"]", .allow_test_ptys = false});
  const auto id = connect(open_before);
  EXPECT_TRUE(is_error(call("serial_connect", {{"port", later.link()}}), -32020, "NOT_AUTHORIZED"));

  const auto dir = daemon_.temp_dir().path().string();
  daemon_.write_file("mcpud.toml", sim_config_toml() + "\n[serial]\nallowed_ports = [\"" + dir + "/tty*\"]\n");
  daemon_.signal(SIGHUP);
  ASSERT_TRUE(daemon_.wait_for_log("reloaded:"));
  EXPECT_FALSE(connect(later).empty());
  ASSERT_TRUE(open_before.write("survived"));
  EXPECT_EQ(result("serial_read", {{"session_id", id}, {"timeout_ms", 5000}})["data"], "survived");
}

TEST_F(SerialTest, ABadEnvironmentValueStopsStartUpWithItsName) {
  ScopedEnv baud("SERIAL_MCP_DEFAULT_BAUD", "fast");
  ASSERT_TRUE(daemon_.start({"--listen", "127.0.0.1:0"}));
  const auto code = daemon_.wait_exit(10s);
  ASSERT_TRUE(code.has_value());
  EXPECT_NE(*code, 0);
  EXPECT_TRUE(contains(daemon_.log(), "SERIAL_MCP_DEFAULT_BAUD='fast'"));
}

}  // namespace
}  // namespace mcpud::it
