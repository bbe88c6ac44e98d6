// SPDX-License-Identifier: MIT
// mcpud.toml(5) is made from the configuration schema: the committed page is
// what the schema gives today, and it names every table and key.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "config.hpp"
#include "config_manual.hpp"

namespace mcpud::config {
namespace {

constexpr const char* kCommitted = MCPUD_SOURCE_DIR "/docs/man/mcpud.toml.5.in";

std::string committed_page() {
  std::ifstream file(kCommitted);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(ConfigManual, TheCommittedPageIsTheSchemas) {
  const auto made = manual_page(schema(), "@PROJECT_VERSION@");
  if (made != committed_page()) {
    std::ofstream("mcpud.toml.5.in") << made;
    FAIL() << kCommitted << " is not what the schema gives: the new page is in mcpud.toml.5.in in "
           << "the test's working directory (build/tests); copy it over the committed one";
  }
}

TEST(ConfigManual, NamesEveryTableKeyAndWhatItTakes) {
  const auto page = manual_page(schema(), "1.2.3");
  EXPECT_NE(page.find("\"mcpud 1.2.3\""), std::string::npos);
  for (const std::string part : {".SS [limits]", ".SS [[pins]]", ".SS [http]", ".B max_sessions_per_address",
                                 ".B activity_details", ".SS [uplink.services]", "default 16; from 1 to 100000",
                                 "one of \"debug\", \"info\", \"warn\", \"error\"", "sampling.interval_ms"}) {
    EXPECT_NE(page.find(part), std::string::npos) << part;
  }
}

}  // namespace
}  // namespace mcpud::config
