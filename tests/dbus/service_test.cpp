// SPDX-License-Identifier: MIT
// The D-Bus service in this process, on its own io_context thread, over a
// registry of test tools that the real daemon does not have yet: a user-only
// tool (the service checks the caller itself, whatever the bus policy lets
// through), a tool that answers only later (asynchronous methods), a bridge's
// tools and the serial tool set's session list. mcpuctl calls it, as root and
// as nobody, on a bus that lets everyone call.
#include <unistd.h>

#include <filesystem>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "bus_daemon.hpp"
#include "ctl_run.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/dbus/dbus_service.hpp"
#include "support/fixtures.hpp"
#include "typed_arguments.hpp"

namespace mcpud::it {
namespace {

using nlohmann::json;

Tool tool_named(std::string name, bool user_only) {
  Tool tool;
  tool.name = std::move(name);
  tool.description = "test tool";
  tool.input_schema = {{"type", "object"}, {"properties", json::object()}};
  tool.annotations.user_only = user_only;
  tool.owner = "test";
  tool.invoke = [](json, ToolReply reply) { reply(json{{"done", true}}); };
  return tool;
}

class DbusServiceInProcess : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "calling as user nobody needs root";
    ASSERT_FALSE(bus_.address().empty());
    bus_.export_address();
    ASSERT_TRUE(registry_.add(tool_named("secret", true)));
    ASSERT_TRUE(registry_.add(tool_named("open", false)));
    Tool hold = tool_named("hold", false);  // answers when "release" is called
    hold.invoke = [this](json, ToolReply reply) { held_ = std::move(reply); };
    ASSERT_TRUE(registry_.add(std::move(hold)));
    Tool release = tool_named("release", false);
    release.invoke = [this](json, ToolReply reply) {
      if (held_) held_(json{{"released", true}});
      held_ = nullptr;
      reply(json{{"done", true}});
    };
    ASSERT_TRUE(registry_.add(std::move(release)));
    auto none = [] { return std::vector<std::string>{}; };
    dbus::ControlSource source{[] { return std::string("test"); },
                               "0.0.0",
                               [] { return std::string("sim"); },
                               none,
                               [] { return std::vector<dbus::ClientRow>{}; },
                               [] { return std::vector<dbus::PinRow>{}; },
                               [] { return std::size_t{0}; },
                               [] { return std::expected<void, std::string>{}; },
                               "session"};
    service_ = std::make_unique<dbus::DbusService>(io_, registry_, events_, std::move(source));
    ASSERT_TRUE(service_->open(dbus::BusKind::Session));
    loop_ = std::thread([this] { io_.run(); });
    ctl_copy_ = (bus_.directory() / "mcpuctl").string();
    std::filesystem::copy_file(MCPUCTL_BINARY, ctl_copy_, std::filesystem::copy_options::overwrite_existing);
    std::filesystem::permissions(ctl_copy_, std::filesystem::perms(0755));
  }

  void TearDown() override {
    if (!loop_.joinable()) return;
    boost::asio::post(io_, [this] {
      service_->close();
      work_.reset();
    });
    loop_.join();
  }

  CtlOutput as_nobody_ctl(std::vector<std::string> args) {
    args.insert(args.begin(), "--bus=session");
    return run_program("/usr/bin/setpriv", as_nobody(ctl_copy_, args));
  }

  BusDaemon bus_{BusDaemon::Kind::Session};
  boost::asio::io_context io_{1};
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_ = boost::asio::make_work_guard(io_);
  ToolRegistry registry_;
  EventHub events_;
  std::unique_ptr<dbus::DbusService> service_;
  std::thread loop_;
  std::string ctl_copy_;
  ToolReply held_;  // event loop thread only
};

TEST_F(DbusServiceInProcess, NobodyMayCallOrdinaryToolsButNotUserOnlyOnes) {
  const auto open = as_nobody_ctl({"call", "open", "--json"});
  EXPECT_EQ(open.exit_code, 0) << open.err;
  EXPECT_EQ(open.json(), (json{{"done", true}}));
  const auto secret = as_nobody_ctl({"call", "secret"});
  EXPECT_EQ(secret.exit_code, 1);
  EXPECT_EQ(secret.err,
            "mcpuctl: Not authorized: secret is a user-only tool; uid 65534 is neither root nor a member of group "
            "'mcpud' (NotAuthorized)\n");
}

TEST_F(DbusServiceInProcess, RootMayCallUserOnlyTools) {
  const auto secret = run_ctl({"--bus=session", "call", "secret", "--json"});
  EXPECT_EQ(secret.exit_code, 0) << secret.err;
  EXPECT_EQ(secret.json(), (json{{"done", true}}));
}

TEST_F(DbusServiceInProcess, UserOnlyToolsAreListedOnlyOnRequest) {
  const json listed = run_ctl({"--bus=session", "tools", "--json"}).json();
  ASSERT_EQ(listed.size(), 3u) << listed.dump();
  for (const auto& tool : listed) EXPECT_NE(tool["name"], "secret");
  const json all = run_ctl({"--bus=session", "tools", "--all", "--json"}).json();
  ASSERT_EQ(all.size(), 4u) << all.dump();
  EXPECT_EQ(all[0]["name"], "secret");
  EXPECT_EQ(all[0]["annotations"]["user_only"], true);
}

TEST_F(DbusServiceInProcess, ASlowToolDoesNotHoldUpOtherCallers) {
  DaemonProcess slow;
  ASSERT_TRUE(slow.start_program(MCPUCTL_BINARY, {"--bus=session", "call", "hold", "--json"}));
  // While "hold" waits for its answer, other calls are served, among them the
  // one that makes "hold" answer.
  ASSERT_TRUE(eventually(
      [&] {
        return run_ctl({"--bus=session", "call", "release"}).out.find("\"done\": true") != std::string::npos &&
               !slow.running();
      },
      20s));
  EXPECT_EQ(slow.wait_exit(), 0);
  EXPECT_EQ(json::parse(slow.stdout_text()), (json{{"released", true}}));
}

TEST_F(DbusServiceInProcess, BridgesAreToolOwnersNamedBridge) {
  Tool remote = tool_named("uno__gpio_write", false);
  remote.owner = "bridge:uno";
  boost::asio::post(io_, [&, remote] { (void)registry_.add(remote); });
  ASSERT_TRUE(eventually([&] { return run_ctl({"--bus=session", "bridges"}).out.starts_with("ID"); }, 10s));
  const json bridges = run_ctl({"--bus=session", "bridges", "--json"}).json();
  EXPECT_EQ(bridges, json::parse(R"([{"id":"uno","tool_count":1,"details":{}}])"));
  EXPECT_TRUE(contains(run_ctl({"--bus=session", "status"}).out, "bridges:   uno (1 tools)"));
}

TEST_F(DbusServiceInProcess, SerialSessionsComeFromTheSerialToolSet) {
  Tool list = tool_named("serial_list_sessions", false);
  list.invoke = [](json, ToolReply reply) {
    reply(json::parse(R"({"sessions":[{"session_id":"s1","port":"/dev/ttyUSB0","baud":115200,"open":true}]})"));
  };
  boost::asio::post(io_, [&, list] { (void)registry_.add(list); });
  ASSERT_TRUE(eventually([&] { return run_ctl({"--bus=session", "sessions"}).out.starts_with("SESSION"); }, 10s));
  EXPECT_EQ(run_ctl({"--bus=session", "sessions", "--json"}).json(),
            json::parse(R"([{"session_id":"s1","port":"/dev/ttyUSB0","details":{"baud":115200,"open":true}}])"));
}

TEST(CtlArguments, AreTypedByTheSchema) {
  const json schema = json::parse(R"({"type":"object","properties":{"pin":{"type":"integer"},"value":{"type":"boolean"},
      "label":{"type":"string"},"level":{"type":"number"},"pin_or_name":{"type":["integer","string"]}}})");
  const auto args =
      ctl::typed_arguments({"pin=17", "value=true", "label=123", "level=1.5", "extra=[1,2]", "other=x"}, schema);
  ASSERT_TRUE(args) << args.error();
  EXPECT_EQ(*args, json::parse(R"({"pin":17,"value":true,"label":"123","level":1.5,"extra":[1,2],"other":"x"})"));
  EXPECT_EQ(ctl::typed_arguments({"pin=x"}, schema).error(), "pin: expected an integer, got 'x'");
  EXPECT_EQ(ctl::typed_arguments({"value=maybe"}, schema).error(), "value: expected true or false, got 'maybe'");
  EXPECT_EQ(ctl::typed_arguments({"novalue"}, schema).error(), "'novalue': expected NAME=VALUE");
  EXPECT_EQ(*ctl::typed_arguments({R"({"pin": 4})"}, schema), json({{"pin", 4}}));
}

TEST(DbusErrors, StableNamesBecomeDbusErrorNames) {
  EXPECT_EQ(dbus::error_name_for("PIN_NOT_FOUND"), "io.mcpud.Error.PinNotFound");
  EXPECT_EQ(dbus::error_name_for("PORT_ALREADY_IN_USE"), "io.mcpud.Error.PortAlreadyInUse");
  EXPECT_EQ(dbus::to_bus_error(Error::invalid_params("arguments.pin: expected integer")).name,
            "io.mcpud.Error.InvalidArguments");
  EXPECT_EQ(dbus::to_bus_error(Error::method_not_found("Unknown tool: x")).name, "io.mcpud.Error.UnknownTool");
  EXPECT_TRUE(dbus::may_call_user_only_tools({0}));
  EXPECT_FALSE(dbus::may_call_user_only_tools({65534}));
}

}  // namespace
}  // namespace mcpud::it
