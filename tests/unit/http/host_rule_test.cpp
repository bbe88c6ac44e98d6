// SPDX-License-Identifier: MIT
// Unit tests of the Host rule of the HTTP front door: parsing, and which names a
// listener answers to on loopback, on its own address, on a wildcard.
#include "host_rule.hpp"

#include <gtest/gtest.h>

namespace mcpud::http {
namespace {

using boost::asio::ip::make_address;

HostRule rule_for(const std::string& bound, const std::vector<std::string>& allowed = {}) {
  auto rule = host_rule(make_address(bound), allowed);
  EXPECT_TRUE(rule) << (rule ? "" : rule.error());
  return rule ? *rule : HostRule{};
}

HostVerdict judge(std::string_view host, const HostRule& rule) {
  const std::string_view values[] = {host};
  return judge_host(values, rule);
}

TEST(HostRule, Parse_SplitsNamePortAndAddresses) {
  EXPECT_EQ(parse_host("LocalHost:8080"), (HostName{"localhost", std::nullopt, 8080}));
  EXPECT_EQ(parse_host("pi.local"), (HostName{"pi.local", std::nullopt, std::nullopt}));
  EXPECT_EQ(parse_host("192.0.2.7:80"), (HostName{"192.0.2.7", make_address("192.0.2.7"), 80}));
  EXPECT_EQ(parse_host("[0:0::1]:3000"), (HostName{"::1", make_address("::1"), 3000})) << "IPv6 in canonical form";
  EXPECT_EQ(parse_host("[::1]"), (HostName{"::1", make_address("::1"), std::nullopt}));
  EXPECT_EQ(parse_host("my_pi-2.lan:65535")->port, 65535);
}

TEST(HostRule, Parse_RefusesWhatIsNoHost) {
  for (const std::string_view bad : {"",
                                     ":80",
                                     "localhost:",
                                     "localhost:x",
                                     "localhost:65536",
                                     "localhost:0",
                                     "[::1]:00",
                                     "localhost:123456",
                                     "localhost:80:80",
                                     "evil.example@localhost",
                                     "localhost:80@evil.example",
                                     "user:pw@localhost",
                                     "localhost/mcp",
                                     "local host",
                                     "localhost?",
                                     "local%68ost",
                                     "[::1",
                                     "[::1]x",
                                     "[::1]:",
                                     "[]",
                                     "[fe80::1%25eth0]",
                                     "[v1.x]",
                                     "::1",
                                     "http://localhost",
                                     "[127.0.0.1]"}) {
    EXPECT_FALSE(parse_host(bad)) << bad;
  }
}

TEST(HostRule, LoopbackListener_AcceptsLoopbackNamesOnAnyPortOnly) {
  const auto rule = rule_for("127.0.0.1");
  for (const std::string_view good :
       {"localhost", "LOCALHOST:8080", "127.0.0.1", "127.0.0.1:1", "127.1.2.3:8080", "[::1]", "[::1]:8080"}) {
    EXPECT_EQ(judge(good, rule), HostVerdict::accepted) << good;
  }
  for (const std::string_view foreign : {"evil.example", "evil.example:8080", "localhost.evil.example",
                                         "127.0.0.1.nip.io", "192.168.1.5", "[::ffff:127.0.0.1]", "0.0.0.0"}) {
    EXPECT_EQ(judge(foreign, rule), HostVerdict::not_allowed) << foreign;
  }
  EXPECT_EQ(judge("evil.example", rule_for("::1")), HostVerdict::not_allowed);
}

TEST(HostRule, LoopbackListener_AlsoAcceptsAllowedHosts) {
  const auto rule = rule_for("127.0.0.1", {"pi.local", "Proxy.Example:443"});
  EXPECT_EQ(judge("pi.local", rule), HostVerdict::accepted);
  EXPECT_EQ(judge("PI.LOCAL:8080", rule), HostVerdict::accepted) << "an entry without a port matches any port";
  EXPECT_EQ(judge("proxy.example:443", rule), HostVerdict::accepted);
  EXPECT_EQ(judge("proxy.example", rule), HostVerdict::not_allowed) << "an entry with a port matches that port";
  EXPECT_EQ(judge("proxy.example:8443", rule), HostVerdict::not_allowed);
  EXPECT_EQ(judge("localhost:8080", rule), HostVerdict::accepted);
  EXPECT_EQ(judge("evil.example", rule), HostVerdict::not_allowed);
}

TEST(HostRule, OtherListenerWithoutAllowedHosts_AcceptsAnyWellFormedName) {
  for (const std::string bound : {"0.0.0.0", "::", "192.168.1.5"}) {
    const auto rule = rule_for(bound);
    EXPECT_EQ(judge("raspberrypi.local:8080", rule), HostVerdict::accepted) << bound;
    EXPECT_EQ(judge("192.168.1.5", rule), HostVerdict::accepted) << bound;
    EXPECT_EQ(judge("me@raspberrypi.local", rule), HostVerdict::malformed) << bound;
  }
}

TEST(HostRule, OtherListenerWithAllowedHosts_AcceptsThemItsAddressAndLoopback) {
  const auto own = rule_for("192.168.1.5", {"pi.local", "[fd00::7]"});
  EXPECT_EQ(judge("pi.local:8080", own), HostVerdict::accepted);
  EXPECT_EQ(judge("[FD00:0::7]:8080", own), HostVerdict::accepted);
  EXPECT_EQ(judge("192.168.1.5:8080", own), HostVerdict::accepted) << "its own address";
  EXPECT_EQ(judge("localhost", own), HostVerdict::accepted);
  EXPECT_EQ(judge("192.168.1.6", own), HostVerdict::not_allowed);
  EXPECT_EQ(judge("evil.example", own), HostVerdict::not_allowed);

  const auto wildcard = rule_for("0.0.0.0", {"pi.local"});
  EXPECT_EQ(judge("pi.local", wildcard), HostVerdict::accepted);
  EXPECT_EQ(judge("0.0.0.0", wildcard), HostVerdict::not_allowed) << "a wildcard is no address of its own";
  EXPECT_EQ(judge("evil.example", wildcard), HostVerdict::not_allowed);
}

TEST(HostRule, NoneOrSeveralHostHeadersAreRefused) {
  const auto rule = rule_for("0.0.0.0");
  EXPECT_EQ(judge_host({}, rule), HostVerdict::missing);
  const std::string_view two[] = {"localhost", "localhost"};
  EXPECT_EQ(judge_host(two, rule), HostVerdict::repeated);
  EXPECT_EQ(judge("", rule), HostVerdict::malformed);
}

TEST(HostRule, AllowedHostsThatAreNoHostNamesAreNamed) {
  const auto rule = host_rule(make_address("127.0.0.1"), {"pi.local", "pi.local:99999"});
  ASSERT_FALSE(rule);
  EXPECT_EQ(rule.error(),
            "http.allowed_hosts[1]: 'pi.local:99999' is not a host name with an optional :port, e.g. pi.local or "
            "pi.local:8080");
}

}  // namespace
}  // namespace mcpud::http
