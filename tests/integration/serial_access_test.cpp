// SPDX-License-Identifier: MIT
// Who may open which port, and whose a session is, through the real mcpud: an
// allow list that lists none refuses every port; a path that is not an allowed
// serial port gets one answer whatever it is and is never opened; a session is
// its opener's alone unless the configuration shares it; ring buffers are
// bounded in total; `mcpud --stdio` keeps serial-mcp's open default.

#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <sstream>

#include "serial_fixture.hpp"

namespace mcpud::it {
namespace {

// The names in `dir` that something opened since the watch began.
class OpenWatch {
 public:
  explicit OpenWatch(const std::filesystem::path& dir) : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    EXPECT_GE(fd_, 0);
    EXPECT_GE(::inotify_add_watch(fd_, dir.c_str(), IN_OPEN), 0);
  }
  ~OpenWatch() { ::close(fd_); }
  OpenWatch(const OpenWatch&) = delete;
  OpenWatch& operator=(const OpenWatch&) = delete;

  std::vector<std::string> opened() const {
    std::vector<std::string> names;
    alignas(inotify_event) char buffer[4096];
    for (;;) {
      const auto n = ::read(fd_, buffer, sizeof buffer);
      if (n <= 0) return names;
      for (char* at = buffer; at < buffer + n;) {
        const auto* event = reinterpret_cast<const inotify_event*>(at);
        if (event->len > 0) names.emplace_back(event->name);
        at += sizeof(inotify_event) + event->len;
      }
    }
  }

 private:
  int fd_;
};

std::string error_message(const json& reply) { return reply["error"].value("message", ""); }

TEST_F(SerialTest, WithoutAnAllowListNoPortOpensAndTheErrorNamesTheKey) {
  SerialPeer peer(link("ttyCLOSED"));
  start_with({.allow_test_ptys = false});
  const json refused = call("serial_connect", {{"port", peer.link()}});
  EXPECT_TRUE(is_error(refused, -32020, "NOT_AUTHORIZED")) << refused.dump();
  EXPECT_TRUE(contains(error_message(refused), "[serial] allowed_ports lists none"));
  EXPECT_TRUE(contains(error_message(refused), "SERIAL_MCP_ALLOWED_PORTS"));
  // Listing still works, and says the port may not be opened.
  bool listed = false;
  const json ports = result("serial_list_ports", json::object())["ports"];
  for (const auto& port : ports) {
    if (port["name"] != peer.link()) continue;
    listed = true;
    EXPECT_EQ(port["allowed"], false) << port.dump();
  }
  EXPECT_TRUE(listed) << ports.dump();

  // An empty list is the same as none.
  const auto dir = daemon_.temp_dir().path().string();
  daemon_.write_file("mcpud.toml",
                     sim_config_toml() + "\n[serial]\nports = [\"" + dir + "/tty*\"]\nallowed_ports = []\n");
  daemon_.signal(SIGHUP);
  ASSERT_TRUE(daemon_.wait_for_log("reloaded:"));
  EXPECT_TRUE(contains(error_message(call("serial_connect", {{"port", peer.link()}})), "lists none"));
}

TEST_F(SerialTest, PathsThatAreNotAllowedSerialPortsGetOneAnswerAndAreNeverOpened) {
  const auto dir = daemon_.temp_dir().path();
  // Names the allow list matches, of things that are not serial ports: opening
  // a FIFO O_RDWR would succeed, so only a check before open() keeps it shut.
  ASSERT_EQ(::mkfifo((dir / "ttyFIFO").c_str(), 0600), 0);
  daemon_.write_file("ttyFILE", "plain file");
  std::filesystem::create_symlink("/etc/shadow", dir / "ttySHADOW");
  start_with({.lines = "allowed_ports = [\"" + dir.string() + "/tty*\", \"/dev/null\", \"/dev/ptmx\", \"/dev/tty\"]",
              .allow_test_ptys = false});
  OpenWatch watch(dir);

  const std::vector<std::string> refused_ports = {(dir / "ttyFIFO").string(),
                                                  (dir / "ttyFILE").string(),
                                                  (dir / "ttySHADOW").string(),
                                                  "/dev/null",  // a character device, but no tty
                                                  "/dev/ptmx",  // a tty driver, but not a serial port
                                                  "/dev/tty",
                                                  "/etc/shadow",
                                                  "../etc/shadow",
                                                  "/proc/1/mem",
                                                  "/no/such/dir/ttyX",
                                                  (dir / "nothing").string()};
  std::string common;  // the message after the path, the same for every one
  for (const auto& port : refused_ports) {
    const json reply = call("serial_connect", {{"port", port}});
    ASSERT_TRUE(is_error(reply, -32020, "NOT_AUTHORIZED")) << port << ": " << reply.dump();
    const std::string shown = port.starts_with('/') ? port : "/dev/" + port;
    const std::string message = error_message(reply);
    ASSERT_TRUE(message.starts_with(shown)) << message;
    if (common.empty()) common = message.substr(shown.size());
    EXPECT_EQ(message.substr(shown.size()), common) << port << " is told apart: " << message;
  }
  EXPECT_TRUE(contains(common, "is not an allowed serial port")) << common;
  const auto opened = watch.opened();
  EXPECT_TRUE(opened.empty()) << "mcpud opened " << opened.front();
}

// An allowed link name stands for its device only when no other user could
// have made or swapped the link: `ln -s /dev/pts/2 ttyEVIL` by someone else
// must not hand a client another user's terminal.
TEST_F(SerialTest, ALinkAnotherUserCouldHaveMadeOrSwappedIsNotOpened) {
  const auto dir = daemon_.temp_dir().path();
  const auto shared = dir / "shared";
  std::filesystem::create_directory(shared);
  ASSERT_EQ(::chmod(shared.c_str(), 0777), 0);
  SerialPeer mine(link("ttyMINE"));
  SerialPeer theirs(link("ttyTHEIRS"));
  SerialPeer in_shared(shared / "ttyV0");
  const bool as_root = ::geteuid() == 0;
  if (as_root) {
    ASSERT_EQ(::lchown(theirs.link().c_str(), 65534, 65534), 0);  // made by nobody
  }
  start_with({.lines = "allowed_ports = [\"" + dir.string() + "/tty*\", \"" + shared.string() + "/tty*\"]",
              .allow_test_ptys = false});
  const json swappable = call("serial_connect", {{"port", in_shared.link()}});
  ASSERT_TRUE(is_error(swappable, -32020, "NOT_AUTHORIZED")) << swappable.dump();
  EXPECT_TRUE(contains(error_message(swappable), "is a link in a directory other users may write to")) << swappable;
  if (as_root) {
    const json foreign = call("serial_connect", {{"port", theirs.link()}});
    ASSERT_TRUE(is_error(foreign, -32020, "NOT_AUTHORIZED")) << foreign.dump();
    EXPECT_TRUE(contains(error_message(foreign),
                         "leads to the terminal " + theirs.slave() + " and was made by another user (uid 65534)"))
        << foreign;
  }
  EXPECT_FALSE(connect(mine).empty()) << "a link of mcpud's own user in its own directory";
}

TEST_F(SerialTest, AnotherUsersLinkToAPtyIsOpenedWhenTheConfigAllowsPtys) {
  if (::geteuid() != 0) GTEST_SKIP() << "making a link another user owns needs root";
  SerialPeer theirs(link("ttyTHEIRS"));
  ASSERT_EQ(::lchown(theirs.link().c_str(), 65534, 65534), 0);
  start_with({.lines = "allowed_ports = [\"" + daemon_.temp_dir().path().string() + "/tty*\", \"/dev/pts/*\"]",
              .allow_test_ptys = false});
  EXPECT_FALSE(connect(theirs).empty());
}

TEST_F(SerialTest, ASessionIsItsOpenersAloneAndClosesWhenItsOpenerLeaves) {
  SerialPeer peer(link("ttyMINE"));
  start_with({.share_sessions = false});
  const auto id = connect(peer);
  ASSERT_FALSE(id.empty());
  auto other = LineClient::connect_tcp(port_);
  ASSERT_TRUE(other);

  // To another client the session is as unknown as a made-up id.
  const auto unknown_text = [](const json& reply, const std::string& session) {
    std::string message = error_message(reply);
    if (const auto at = message.find(session); at != std::string::npos) message.replace(at, session.size(), "ID");
    return message;
  };
  const json made_up = other->call("serial_read", {{"session_id", "0000"}});
  for (const auto& [tool, extra] : std::vector<std::pair<std::string, json>>{{"serial_read", json::object()},
                                                                             {"serial_send", {{"data", "x"}}},
                                                                             {"serial_flush", json::object()},
                                                                             {"serial_exec", {{"command", "x"}}},
                                                                             {"serial_disconnect", json::object()}}) {
    json params = extra;
    params["session_id"] = id;
    const json reply = other->call(tool, params);
    EXPECT_TRUE(is_error(reply, -32030, "UNKNOWN_SESSION")) << tool << ": " << reply.dump();
    EXPECT_EQ(unknown_text(reply, id), unknown_text(made_up, "0000")) << tool;
  }
  EXPECT_EQ(other->result("serial_list_sessions")["sessions"], json::array());
  const json ports = other->result("serial_list_ports")["ports"];  // kept: the loop must not outlive it
  for (const auto& port : ports) {
    if (port["name"] != peer.link()) continue;
    EXPECT_EQ(port["in_use"], true);
    EXPECT_FALSE(port.contains("session_id")) << port.dump();
  }
  const json taken = other->call("serial_connect", {{"port", peer.link()}});
  EXPECT_TRUE(is_error(taken, -32031, "PORT_ALREADY_IN_USE"));
  EXPECT_FALSE(contains(error_message(taken), id)) << "another client's session id was told";
  const json mcp_subscribe = other->call("resources/subscribe", {{"uri", "mcpu://serial/" + id}});
  EXPECT_TRUE(is_error(mcp_subscribe, -32002)) << mcp_subscribe.dump();

  // Its data goes to its owner only: a client that subscribes by id is refused.
  EXPECT_TRUE(is_error(other->call("subscribe", {{"uris", {"mcpu://serial/" + id}}}), -32050, "RESOURCE_NOT_FOUND"));
  result("subscribe", {{"uris", {"mcpu://serial/" + id}}});
  ASSERT_TRUE(peer.write("for the owner"));
  const auto pushed = client().read_line(10s);
  ASSERT_TRUE(pushed);
  EXPECT_TRUE(contains(*pushed, "for the owner"));
  EXPECT_TRUE(other->silent_for(500ms)) << "another client heard the session's data";

  // The owner leaves: its session closes and the port is free for the next client.
  client().close();
  EXPECT_TRUE(eventually(
      [&] {
        return !other->call("serial_connect", {{"port", peer.link()}}).contains("error");
      },
      10s));
  EXPECT_TRUE(daemon_.wait_for_log("session " + id + ": its client went away"));
}

TEST_F(SerialTest, SharedSessionsServeEveryClientAndOutliveTheirOpener) {
  SerialPeer peer(link("ttyOURS"));
  start();  // share_sessions = true
  const auto id = connect(peer);
  auto other = LineClient::connect_tcp(port_);
  ASSERT_TRUE(other);
  client().close();
  ASSERT_TRUE(peer.write("for anyone"));
  EXPECT_EQ(other->result("serial_read", {{"session_id", id}, {"timeout_ms", 5000}})["data"], "for anyone");
}

TEST_F(SerialTest, RingBuffersAreBoundedInTotal) {
  SerialPeer a(link("ttyBUF1"));
  SerialPeer b(link("ttyBUF2"));
  SerialPeer c(link("ttyBUF3"));
  start("buffer_bytes = 1024\nbuffer_bytes_total = 3000");
  const auto first = connect(a);
  ASSERT_FALSE(connect(b).empty());
  const json full = call("serial_connect", {{"port", c.link()}});
  EXPECT_TRUE(is_error(full, -32040, "BUSY")) << full.dump();
  EXPECT_TRUE(contains(error_message(full), "[serial] buffer_bytes_total (3000 bytes): 2048 are in use"))
      << full.dump();
  const json huge = call("serial_connect", {{"port", c.link()}, {"buffer_bytes", 65536}});
  EXPECT_TRUE(is_error(huge, -32040, "BUSY")) << huge.dump();

  result("serial_disconnect", {{"session_id", first}});
  EXPECT_FALSE(connect(c).empty()) << "a closed session's buffer is free again";
}

TEST_F(SerialTest, StdioKeepsTheOpenDefaultForItsUserButStillOnlySerialPorts) {
  SerialPeer peer(link("ttySTDIO"));
  ASSERT_TRUE(peer.ok());
  const auto config = daemon_.write_file("stdio.toml", sim_config_toml());  // no [serial] allowed_ports
  const auto request = [](int id, const std::string& port) {
    return request_text("serial_connect", {{"port", port}}, id);
  };
  // stdin stays open a while: its end stops the daemon.
  const std::string script =
      "printf '%s\\n' '" + request(1, peer.link()) + "' '" + request(2, "/dev/null") + "'; sleep 20";
  ASSERT_TRUE(daemon_.start_program(
      "/bin/sh", {"-c", "(" + script + ") | '" MCPUD_BINARY "' --stdio --dbus=none --config '" + config + "'"}));
  std::vector<json> replies;
  ASSERT_TRUE(eventually(
      [&] {
        replies.clear();
        std::istringstream lines(daemon_.stdout_text());
        for (std::string line; std::getline(lines, line);) replies.push_back(json::parse(line, nullptr, false));
        return replies.size() >= 2;
      },
      15s))
      << daemon_.log();
  EXPECT_TRUE(replies[0].contains("result")) << replies[0].dump();
  EXPECT_TRUE(is_error(replies[1], -32020, "NOT_AUTHORIZED")) << replies[1].dump();
  EXPECT_TRUE(contains(error_message(replies[1]), "/dev/null is not a serial port"));
}

}  // namespace
}  // namespace mcpud::it
