// SPDX-License-Identifier: MIT
// The serial tools against a device played by socat on a pty (as a user would
// fake a board): an echoing peer, then the peer going away.

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "serial_fixture.hpp"

namespace mcpud::it {
namespace {

// socat with a pty linked at `link` on one side and `command` on the other.
class Socat {
 public:
  Socat(const std::string& link, const std::string& command) {
    pid_ = ::fork();
    if (pid_ == 0) {
      const std::string pty = "PTY,link=" + link + ",raw,echo=0";
      ::execlp("socat", "socat", pty.c_str(), command.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~Socat() { stop(); }
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

 private:
  pid_t pid_ = -1;
};

TEST_F(SerialTest, AnEchoingSocatPeerAnswersExecAndItsDepartureIsNoticed) {
  const auto path = link("ttyECHO").string();
  Socat socat(path, "EXEC:cat");
  ASSERT_TRUE(eventually([&] { return std::filesystem::exists(path); }, 10s)) << "socat did not create " << path;
  start();
  const json opened = result("serial_connect", {{"port", path}, {"baud", 921600}});
  const std::string id = opened.value("session_id", "");
  ASSERT_FALSE(id.empty());
  const json exec = result("serial_exec", {{"session_id", id}, {"command", "ping"}, {"expect", "ping\n"}});
  EXPECT_EQ(exec["data"], "ping\n");
  EXPECT_EQ(exec["matched"], true);
  EXPECT_EQ(result("serial_send", {{"session_id", id}, {"data", "line one"}})["bytes_written"], 9);
  EXPECT_EQ(result("serial_read_line", {{"session_id", id}})["data"], "line one");

  socat.stop();
  ASSERT_TRUE(eventually([&] { return session_info(id).value("state", "") == "disconnected"; }, 10s));
  EXPECT_TRUE(is_error(call("serial_read", {{"session_id", id}}), -32012, "DEVICE_DISCONNECTED"));
}

}  // namespace
}  // namespace mcpud::it
