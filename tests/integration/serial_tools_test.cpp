// SPDX-License-Identifier: MIT
// The serial tool set through the real mcpud over TCP (MCP/U: the tool name is
// the method), against a device played by a pty master: listing, connecting,
// sending, the reads that wait, encodings, errors.

#include <sys/stat.h>
#include <regex>

#include "serial_fixture.hpp"

namespace mcpud::it {
namespace {

TEST_F(SerialTest, ListPortsShowsAConfiguredPtyAndOnlyRealTtys) {
  SerialPeer peer(link("ttyBOARD"));
  ASSERT_TRUE(peer.ok());
  start();
  const json ports = result("serial_list_ports", json::object())["ports"];
  ASSERT_TRUE(ports.is_array());
  bool found = false;
  for (const auto& port : ports) {
    const std::string name = port["name"];
    struct stat st {};
    EXPECT_EQ(::stat(name.c_str(), &st), 0) << name << " does not exist";
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << name << " is not a character device";
    EXPECT_FALSE(std::regex_match(name, std::regex("/dev/(tty[0-9]*|console|ptmx)"))) << "virtual tty listed: " << name;
    EXPECT_TRUE(port["description"].is_string() && !port["description"].get<std::string>().empty()) << port.dump();
    EXPECT_TRUE(port["by_id"].is_array() && port["by_path"].is_array()) << port.dump();
    if (name == peer.link()) {
      found = true;
      EXPECT_EQ(port["kind"], "configured");
      EXPECT_EQ(port["device"], peer.slave());
      EXPECT_EQ(port["allowed"], true);
    }
  }
  EXPECT_TRUE(found) << "the configured pty is missing: " << ports.dump();
}

TEST_F(SerialTest, ConnectSendReadDisconnectWithTheSeedDefaults) {
  SerialPeer peer(link("ttyACM"));
  start();
  const json opened = result("serial_connect", {{"port", peer.link()}});
  const std::string id = opened["session_id"];
  EXPECT_TRUE(std::regex_match(id, std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")))
      << id;
  EXPECT_EQ(opened["port"], peer.link());
  EXPECT_EQ(opened["baud"], 115200);
  EXPECT_EQ(opened["data_bits"], 8);
  EXPECT_EQ(opened["stop_bits"], 1);
  EXPECT_EQ(opened["parity"], "none");
  EXPECT_EQ(opened["timeout_ms"], 100);

  EXPECT_EQ(result("serial_send", {{"session_id", id}, {"data", "help"}})["bytes_written"], 5);
  EXPECT_EQ(peer.read(5), "help\n");
  ASSERT_TRUE(peer.write("commands: led, reset\r\n"));
  const json read = result("serial_read", {{"session_id", id}, {"timeout_ms", 5000}});
  EXPECT_EQ(read["data"], "commands: led, reset\r\n");
  EXPECT_EQ(read["bytes_read"], 22);
  EXPECT_EQ(read["timed_out"], false);
  EXPECT_EQ(read["invalid_utf8"], false);
  EXPECT_EQ(read["bytes_lost"], 0);

  const json closed = result("serial_disconnect", {{"session_id", id}});
  EXPECT_EQ(closed["success"], true);
  EXPECT_TRUE(is_error(call("serial_read", {{"session_id", id}}), -32030, "UNKNOWN_SESSION"));
  EXPECT_TRUE(is_error(call("serial_disconnect", {{"session_id", id}}), -32030, "UNKNOWN_SESSION"));
  // The port is free again.
  EXPECT_FALSE(connect(peer).empty());
}

TEST_F(SerialTest, ReadWithNothingToReadTimesOutWithEmptyData) {
  SerialPeer peer(link("ttyQUIET"));
  start();
  const auto id = connect(peer);
  const json read = result("serial_read", {{"session_id", id}, {"timeout_ms", 200}});
  EXPECT_EQ(read["timed_out"], true);
  EXPECT_EQ(read["data"], "");
  EXPECT_EQ(read["bytes_read"], 0);
}

TEST_F(SerialTest, WaitingReadsAreBoundedAndEndWithTheirClient) {
  SerialPeer peer(link("ttyWAIT"));
  start();
  const auto id = connect(peer);
  auto reader = LineClient::connect_tcp(port_);
  ASSERT_TRUE(reader);
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(reader->send_line(request_text("serial_read", {{"session_id", id}, {"timeout_ms", 300000}}, 100 + i)));
  }
  int busy = 0;
  for (int i = 0; i < 4; ++i) {
    const auto line = reader->read_line(10s);
    ASSERT_TRUE(line) << "reads beyond the bound must be refused at once";
    if (line->find("BUSY") != std::string::npos) ++busy;
  }
  EXPECT_EQ(busy, 4);
  EXPECT_EQ(session_info(id)["pending_reads"], 16);
  reader->close();  // the client leaves: its reads go with it
  EXPECT_TRUE(eventually([&] { return session_info(id)["pending_reads"] == 0; }, 10s)) << session_info(id).dump();
  // And the data is there for whoever reads next.
  ASSERT_TRUE(device_sends(peer, id, "kept"));
  EXPECT_EQ(result("serial_read", {{"session_id", id}, {"timeout_ms", 2000}})["data"], "kept");
}

TEST_F(SerialTest, NumbersSentAsStringsAreAcceptedOtherStringsAreNamed) {
  SerialPeer peer(link("ttySTR"));
  start();
  const json opened = result("serial_connect", {{"port", peer.link()}, {"baud", "9600"}, {"stop_bits", "2"}});
  EXPECT_EQ(opened["baud"], 9600);
  EXPECT_EQ(opened["stop_bits"], 2);
  const std::string id = opened["session_id"];
  ASSERT_TRUE(peer.write("abcdef"));
  EXPECT_EQ(result("serial_read", {{"session_id", id}, {"max_bytes", "3"}, {"timeout_ms", "5000"}})["data"], "abc");
  const json bad = call("serial_read", {{"session_id", id}, {"max_bytes", "lots"}});
  EXPECT_TRUE(is_error(bad, -32602));
  EXPECT_TRUE(contains(bad["error"]["message"], "params.max_bytes: expected integer, got string")) << bad.dump();
}

TEST_F(SerialTest, BadArgumentsNameTheField) {
  SerialPeer peer(link("ttyARGS"));
  start();
  const auto id = connect(peer);
  const auto expect_invalid = [&](const std::string& method, const json& params, const std::string& field,
                                  const std::string& name = {}) {
    const json reply = call(method, params);
    EXPECT_TRUE(is_error(reply, -32602, name)) << method << " " << params.dump();
    EXPECT_TRUE(contains(reply["error"].value("message", ""), field)) << reply.dump();
  };
  expect_invalid("serial_read", {{"session_id", id}, {"max_bytes", 0}}, "params.max_bytes");
  expect_invalid("serial_read", {{"session_id", id}, {"max_bytes", 65537}}, "params.max_bytes");
  expect_invalid("serial_read", {{"session_id", id}, {"encoding", "latin1"}}, "params.encoding");
  expect_invalid("serial_send", {{"session_id", id}, {"data", "zz"}, {"encoding", "hex"}}, "params.data",
                 "INVALID_ARGUMENT");
  expect_invalid("serial_send", {{"session_id", id}, {"data", "a"}, {"encoding", "base64"}}, "params.data",
                 "INVALID_ARGUMENT");
  expect_invalid("serial_read_until", {{"session_id", id}, {"pattern", "(unclosed"}, {"regex", true}}, "params.pattern",
                 "INVALID_ARGUMENT");
  expect_invalid("serial_connect", {{"port", peer.link()}, {"data_bits", 9}}, "params.data_bits");
  expect_invalid("serial_connect", {{"port", peer.link()}, {"parity", "sometimes"}}, "params.parity");
  expect_invalid("serial_connect", {{"port", peer.link()}, {"stop_bits", 1.5}}, "params.stop_bits", "INVALID_ARGUMENT");
  expect_invalid("serial_connect", json::object(), "params.port");
  expect_invalid("serial_set_lines", {{"session_id", id}}, "dtr", "INVALID_ARGUMENT");
  EXPECT_TRUE(is_error(call("serial_send", {{"session_id", "nope"}, {"data", "x"}}), -32030, "UNKNOWN_SESSION"));
}

TEST_F(SerialTest, ConnectRefusesMissingDevicesAndFilesThatAreNotTtys) {
  start();
  // An allowed name with nothing behind it: the device is unplugged.
  const json missing = call("serial_connect", {{"port", link("ttyNONE").string()}});
  EXPECT_TRUE(is_error(missing, -32032, "OPEN_ERROR")) << missing.dump();
  EXPECT_TRUE(contains(missing["error"]["message"], "no such device"));
  const auto file = daemon_.write_file("ttyFILE", "plain file");
  const json plain = call("serial_connect", {{"port", file}});
  EXPECT_TRUE(is_error(plain, -32020, "NOT_AUTHORIZED")) << plain.dump();
  EXPECT_TRUE(contains(plain["error"]["message"], "is not an allowed serial port"));
}

TEST_F(SerialTest, HighAndUnusualBaudRatesAreAcceptedAndDriverChangesAreReported) {
  SerialPeer peer(link("ttyFAST"));
  start();
  for (const int baud : {921600, 1000000, 250000, 1200}) {
    const json opened = result("serial_connect", {{"port", peer.link()}, {"baud", baud}});
    EXPECT_EQ(opened["baud"], baud);
    EXPECT_FALSE(opened.contains("adjusted_by_driver")) << opened.dump();
    EXPECT_EQ(result("serial_disconnect", {{"session_id", opened["session_id"]}})["success"], true);
  }
  // A pty is always 8N1: the reply gives the settings in effect and says what changed.
  const json framed = result("serial_connect", {{"port", peer.link()}, {"data_bits", 7}, {"parity", "even"}});
  EXPECT_EQ(framed["data_bits"], 8);
  EXPECT_EQ(framed["parity"], "none");
  ASSERT_TRUE(framed.contains("adjusted_by_driver")) << framed.dump();
  EXPECT_TRUE(contains(framed["adjusted_by_driver"].dump(), "data_bits: asked 7, the driver uses 8"));
}

TEST_F(SerialTest, InvalidUtf8IsFlaggedAndBinaryRoundTripsInHexAndBase64) {
  SerialPeer peer(link("ttyBIN"));
  start();
  const auto id = connect(peer);
  ASSERT_TRUE(device_sends(peer, id, std::string("ok\xff\xfe", 4)));
  const json text = result("serial_read", {{"session_id", id}});
  EXPECT_EQ(text["invalid_utf8"], true);
  EXPECT_EQ(text["data"], "ok\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(text["bytes_read"], 4);

  ASSERT_TRUE(device_sends(peer, id, std::string("\x00\x01\xff", 3)));
  EXPECT_EQ(result("serial_read", {{"session_id", id}, {"encoding", "hex"}})["data"], "0001ff");
  ASSERT_TRUE(device_sends(peer, id, std::string("\x00\xfb\xff", 3)));
  EXPECT_EQ(result("serial_read", {{"session_id", id}, {"encoding", "base64"}})["data"], "APv/");

  EXPECT_EQ(result("serial_send", {{"session_id", id}, {"data", "00 7f:80-FF"}, {"encoding", "hex"}})["bytes_written"],
            4);
  EXPECT_EQ(peer.read(4), std::string("\x00\x7f\x80\xff", 4));
  EXPECT_EQ(result("serial_send", {{"session_id", id}, {"data", "AAEC"}, {"encoding", "base64"}})["bytes_written"], 3);
  EXPECT_EQ(peer.read(3), std::string("\x00\x01\x02", 3));
}

TEST_F(SerialTest, ACharacterSplitAcrossTwoArrivalsComesBackWhole) {
  SerialPeer peer(link("ttyUTF"));
  start();
  const auto id = connect(peer);
  ASSERT_TRUE(device_sends(peer, id, "\xE2\x82"));  // the first two bytes of the euro sign
  const int pending = send_request("serial_read", {{"session_id", id}, {"timeout_ms", 10000}});
  // The read waits although two bytes are buffered: they are only half a character.
  ASSERT_TRUE(eventually([&] { return session_info(id).value("pending_reads", 0) == 1; }, 10s));
  ASSERT_TRUE(peer.write("\xAC"));
  const json read = reply_to(pending);
  EXPECT_EQ(read["result"]["data"], "\xE2\x82\xAC");
  EXPECT_EQ(read["result"]["invalid_utf8"], false);
}

TEST_F(SerialTest, ReadLineReadUntilAndExec) {
  SerialPeer peer(link("ttyCON"));
  start();
  const auto id = connect(peer, {{"newline", "\r\n"}});
  ASSERT_TRUE(peer.write("first line\r\nsecond"));
  const json line = result("serial_read_line", {{"session_id", id}});
  EXPECT_EQ(line["data"], "first line");
  EXPECT_EQ(line["line_complete"], true);
  const json partial = result("serial_read_line", {{"session_id", id}, {"timeout_ms", 100}});
  EXPECT_EQ(partial["data"], "second");
  EXPECT_EQ(partial["line_complete"], false);
  EXPECT_EQ(partial["timed_out"], true);

  ASSERT_TRUE(peer.write("U-Boot 2024.01\nstarting kernel\nREADY v1.2> more"));
  const json until = result("serial_read_until", {{"session_id", id}, {"pattern", "READY v[0-9.]+>"}, {"regex", true}});
  EXPECT_EQ(until["matched"], true);
  EXPECT_EQ(until["match"], "READY v1.2>");
  EXPECT_EQ(until["data"], "U-Boot 2024.01\nstarting kernel\nREADY v1.2>");
  const json capped = result("serial_read_until", {{"session_id", id}, {"pattern", "never"}, {"max_bytes", 3}});
  EXPECT_EQ(capped["matched"], false);
  EXPECT_EQ(capped["ended"], "max_bytes");
  EXPECT_EQ(capped["data"], " mo");
  const json literal_hex = [&] {
    EXPECT_TRUE(peer.write(std::string("\x02payload\x03", 9)));
    return result("serial_read_until",
                  {{"session_id", id}, {"pattern", "03"}, {"pattern_encoding", "hex"}, {"encoding", "hex"}});
  }();
  EXPECT_EQ(literal_hex["data"],
            "7265"
            "02"
            "7061796c6f6164"
            "03");  // "re" left over, then the frame

  // exec: stale input is discarded, the command goes out with the session's newline, the answer comes back.
  ASSERT_TRUE(device_sends(peer, id, "stale"));
  const int pending = send_request("serial_exec", {{"session_id", id}, {"command", "version"}, {"expect", "> "}});
  EXPECT_EQ(peer.read(9), "version\r\n");
  ASSERT_TRUE(peer.write("mcu 1.0\r\n> "));
  const json exec = reply_to(pending)["result"];
  EXPECT_EQ(exec["data"], "mcu 1.0\r\n> ");
  EXPECT_EQ(exec["matched"], true);
  EXPECT_EQ(exec["discarded_bytes"], 5);
  EXPECT_EQ(exec["bytes_written"], 9);
}

TEST_F(SerialTest, ExecWithoutExpectEndsWhenTheLineGoesQuiet) {
  SerialPeer peer(link("ttyQ"));
  start();
  const auto id = connect(peer);
  const int pending = send_request(
      "serial_exec", {{"session_id", id}, {"command", "status"}, {"quiet_ms", 300}, {"timeout_ms", 20000}});
  EXPECT_EQ(peer.read(7), "status\n");
  ASSERT_TRUE(peer.write("all good\n"));
  const json exec = reply_to(pending, 15s)["result"];
  EXPECT_EQ(exec["data"], "all good\n");
  EXPECT_EQ(exec["ended"], "quiet");
  EXPECT_EQ(exec["timed_out"], false);
}

TEST_F(SerialTest, FlushDiscardsUnreadInputAndSaysHowMuch) {
  SerialPeer peer(link("ttyFL"));
  start();
  const auto id = connect(peer);
  ASSERT_TRUE(device_sends(peer, id, "stale bytes"));
  EXPECT_EQ(result("serial_flush", {{"session_id", id}})["discarded_bytes"], 11);
  EXPECT_EQ(result("serial_read", {{"session_id", id}, {"timeout_ms", 50}})["timed_out"], true);
  EXPECT_EQ(session_info(id)["bytes_discarded"], 11);
}

TEST_F(SerialTest, SetLinesSendsABreakThenCapturesTheBannerInOneCall) {
  SerialPeer peer(link("ttyRST"));
  start();
  const auto id = connect(peer);
  ASSERT_TRUE(device_sends(peer, id, "old output"));
  const int pending = send_request(
      "serial_set_lines",
      {{"session_id", id}, {"break_ms", 20}, {"flush_input", true}, {"until", "login:"}, {"capture_ms", 20000}});
  // The board prints only after its reset: once the capture waits, the flush and the break are done.
  ASSERT_TRUE(eventually([&] { return session_info(id).value("pending_reads", 0) == 1; }, 10s));
  ASSERT_TRUE(peer.write("Booting...\nlogin: "));
  const json reset = reply_to(pending)["result"];
  EXPECT_EQ(reset["capture"]["data"], "Booting...\nlogin:");
  EXPECT_EQ(reset["capture"]["matched"], true);
  // A pty has no modem lines: asking for one is a clear error, not a silent no-op.
  const json dtr = call("serial_set_lines", {{"session_id", id}, {"pulse", "dtr"}});
  EXPECT_TRUE(is_error(dtr, -32011, "WRITE_ERROR"));
  EXPECT_TRUE(contains(dtr["error"]["message"], "no modem lines"));
}

TEST_F(SerialTest, TwoSessionsAtOnceKeepTheirDataApart) {
  SerialPeer a(link("ttyA"));
  SerialPeer b(link("ttyB"));
  start();
  const auto ida = connect(a);
  const auto idb = connect(b, {{"baud", 9600}});
  ASSERT_NE(ida, idb);
  ASSERT_TRUE(a.write("from a"));
  ASSERT_TRUE(b.write("from b"));
  EXPECT_EQ(result("serial_read", {{"session_id", idb}, {"timeout_ms", 5000}})["data"], "from b");
  EXPECT_EQ(result("serial_read", {{"session_id", ida}, {"timeout_ms", 5000}})["data"], "from a");
  result("serial_send", {{"session_id", ida}, {"data", "to a"}});
  result("serial_send", {{"session_id", idb}, {"data", "to b"}});
  EXPECT_EQ(a.read(5), "to a\n");
  EXPECT_EQ(b.read(5), "to b\n");
  const json sessions = result("serial_list_sessions", json::object())["sessions"];
  ASSERT_EQ(sessions.size(), 2u);
  EXPECT_EQ(sessions[1]["baud"], 9600);
  EXPECT_EQ(sessions[0]["bytes_sent"], 5);
  EXPECT_EQ(sessions[0]["state"], "open");
}

TEST_F(SerialTest, AWaitingReadDoesNotHoldUpOtherClients) {
  SerialPeer peer(link("ttyWAIT"));
  start();
  const auto id = connect(peer);
  const int pending = send_request("serial_read", {{"session_id", id}, {"timeout_ms", 60000}});
  auto other = LineClient::connect_tcp(port_);
  ASSERT_TRUE(other);
  EXPECT_EQ(other->result("get_info")["device"], "mcpud-sim");
  EXPECT_TRUE(eventually([&] { return session_info(id).value("pending_reads", 0) == 1; }, 10s));
  ASSERT_TRUE(peer.write("finally"));
  EXPECT_EQ(reply_to(pending)["result"]["data"], "finally");
}

}  // namespace
}  // namespace mcpud::it
