// SPDX-License-Identifier: MIT
// GPIO pieces that run without a GPIO kernel: the software debouncer and the
// messages for chips that do not exist. (Requests are proven in tests/kernel.)
#include "mcpud/hal/gpio.hpp"

#include <stdlib.h>

#include <filesystem>

#include <gtest/gtest.h>

namespace mcpud::hal {
namespace {

TEST(EdgeDebouncer, DropsBouncesInsideTheWindowAndRepeatedDirections) {
  EdgeDebouncer debouncer(5'000'000);  // 5 ms
  EXPECT_TRUE(debouncer.keep({true, 100'000'000}));
  EXPECT_FALSE(debouncer.keep({false, 101'000'000})) << "bounce 1 ms later";
  EXPECT_FALSE(debouncer.keep({true, 102'000'000})) << "same direction as the last kept edge";
  EXPECT_TRUE(debouncer.keep({false, 120'000'000}));
  EXPECT_FALSE(debouncer.keep({false, 130'000'000}));
  EXPECT_TRUE(debouncer.keep({true, 130'000'001}));
}

TEST(EdgeDebouncer, ZeroWindowKeepsEveryLevelChange) {
  EdgeDebouncer debouncer(0);
  EXPECT_TRUE(debouncer.keep({true, 1}));
  EXPECT_TRUE(debouncer.keep({false, 1}));
  EXPECT_TRUE(debouncer.keep({true, 2}));
}

class EmptyDevDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "mcpud-dev-XXXXXX").string();
    dir_ = ::mkdtemp(pattern.data());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(EmptyDevDir, NoChipsIsExplained) {
  EXPECT_TRUE(list_gpio_chips(dir_).empty());
  auto line = resolve_line({"gpiochip0", {}, 3, ""}, dir_);
  ASSERT_FALSE(line);
  EXPECT_EQ(line.error().kind, HalError::Kind::NotFound);
  EXPECT_NE(line.error().message.find("no GPIO chip named or labelled 'gpiochip0'; no GPIO chips in " + dir_),
            std::string::npos)
      << line.error().message;
}

TEST_F(EmptyDevDir, BoardLabelsAreListedWhenNoneMatches) {
  auto line = resolve_line({"", {"pinctrl-bcm2711", "pinctrl-rp1"}, std::nullopt, "GPIO17"}, dir_);
  ASSERT_FALSE(line);
  EXPECT_NE(line.error().message.find("no GPIO chip labelled pinctrl-bcm2711 or pinctrl-rp1"), std::string::npos)
      << line.error().message;
}

TEST(LineAddress, DescribesChipAndLine) {
  EXPECT_EQ((LineAddress{"gpiochip0", {}, 4, ""}.describe()), "gpiochip0:4");
  EXPECT_EQ((LineAddress{"", {"a", "b"}, std::nullopt, "GPIO17"}.describe()), "a|b:GPIO17");
}

}  // namespace
}  // namespace mcpud::hal
