// SPDX-License-Identifier: MIT
// Unit tests of reading a file a configuration names: a regular file up to a
// bound, and nothing of anything else.
#include "mcpud/core/regular_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace mcpud {
namespace {

class RegularFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("mcpud-regular-file-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const char* name) const { return (dir_ / name).string(); }
  std::string write(const char* name, const std::string& text) const {
    std::ofstream(path(name)) << text;
    return path(name);
  }

  std::filesystem::path dir_;
};

TEST_F(RegularFile, ReadsARegularFileWithinTheBound) {
  EXPECT_EQ(read_regular_file(write("a.toml", "device = \"x\"\n"), 100).value(), "device = \"x\"\n");
  EXPECT_EQ(read_regular_file(write("empty", ""), 100).value(), "");
  EXPECT_EQ(read_regular_file(write("exact", std::string(100, 'x')), 100).value().size(), 100u);
}

TEST_F(RegularFile, RefusesMoreThanTheBound) {
  const auto read = read_regular_file(write("big", std::string(101, 'x')), 100);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error(), path("big") + ": more than the 100 bytes it may have");
}

TEST_F(RegularFile, RefusesWhatIsNoRegularFileWithoutReadingIt) {
  EXPECT_EQ(read_regular_file(dir_.string(), 100).error(), dir_.string() + ": is a directory, not a file");
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  // No writer: a blocking open would wait for one for ever.
  EXPECT_EQ(read_regular_file(path("fifo"), 100).error(),
            path("fifo") + ": not a regular file (a device, FIFO or socket)");
  EXPECT_EQ(read_regular_file("/dev/zero", 100).error(), "/dev/zero: not a regular file (a device, FIFO or socket)");
  std::filesystem::create_symlink("/dev/zero", path("zero.toml"));
  EXPECT_FALSE(read_regular_file(path("zero.toml"), 100)) << "a symlink to a device is the device";
  EXPECT_EQ(read_regular_file(path("missing"), 100).error(),
            path("missing") + ": cannot open the file: No such file or directory");
}

}  // namespace
}  // namespace mcpud
