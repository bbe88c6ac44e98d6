// SPDX-License-Identifier: MIT
// Finding GPIO chips and lines by label, name, path or offset, with messages that
// list what exists instead; and the software edge debouncer.
#include <algorithm>
#include <filesystem>
#include <system_error>

#include "gpio/backend.hpp"
#include "mcpud/hal/gpio.hpp"

namespace mcpud::hal {
namespace {

constexpr std::size_t kMaxNamesInMessage = 64;

HalError not_found(std::string message) { return HalError{HalError::Kind::NotFound, std::move(message)}; }

std::string chip_title(const ChipInfo& chip) {
  return chip.name + " [" + chip.label + "] (" + std::to_string(chip.line_names.size()) + " lines)";
}

std::string list_chips(const std::vector<ChipInfo>& chips, const std::string& dev_dir) {
  if (chips.empty())
    return "no GPIO chips in " + dev_dir + " (kernel without GPIO support, or no permission to open them)";
  std::string text = "chips: ";
  for (std::size_t i = 0; i < chips.size(); ++i) text += (i ? ", " : "") + chip_title(chips[i]);
  return text;
}

std::string list_lines(const ChipInfo& chip) {
  std::string text;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < chip.line_names.size() && shown < kMaxNamesInMessage; ++i) {
    if (chip.line_names[i].empty()) continue;
    text += (shown++ ? ", " : "") + chip.line_names[i];
  }
  if (shown == 0) return "its lines have no names; use an offset 0-" + std::to_string(chip.line_names.size() - 1);
  return "its lines: " + text + (shown == kMaxNamesInMessage ? ", ..." : "");
}

const ChipInfo* find_chip(const std::vector<ChipInfo>& chips, const std::string& key) {
  const auto it = std::find_if(chips.begin(), chips.end(),
                               [&](const ChipInfo& c) { return c.path == key || c.name == key || c.label == key; });
  return it == chips.end() ? nullptr : &*it;
}

HalResult<ChipInfo> choose_chip(const LineAddress& address, const std::string& dev_dir) {
  if (!address.chip.empty() && address.chip.front() == '/') {
    auto chip = detail::probe_chip(address.chip);
    if (!chip) return std::unexpected(not_found("GPIO chip " + address.chip + ": " + chip.error().message));
    return chip;
  }
  const auto chips = list_gpio_chips(dev_dir);
  if (!address.chip.empty()) {
    if (const auto* chip = find_chip(chips, address.chip)) return *chip;
    return std::unexpected(
        not_found("no GPIO chip named or labelled '" + address.chip + "'; " + list_chips(chips, dev_dir)));
  }
  for (const auto& label : address.chip_labels) {
    if (const auto* chip = find_chip(chips, label)) return *chip;
  }
  std::string wanted;
  for (const auto& label : address.chip_labels) wanted += (wanted.empty() ? "" : " or ") + label;
  return std::unexpected(not_found("no GPIO chip labelled " + wanted + "; " + list_chips(chips, dev_dir)));
}

}  // namespace

std::string LineAddress::describe() const {
  std::string chip_text = chip;
  for (const auto& label : chip_labels) chip_text += (chip_text.empty() ? "" : "|") + label;
  return chip_text + ":" + (offset ? std::to_string(*offset) : line_name);
}

std::vector<ChipInfo> list_gpio_chips(const std::string& dev_dir) {
  std::vector<ChipInfo> chips;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dev_dir, ec)) {
    const auto name = entry.path().filename().string();
    if (name.rfind("gpiochip", 0) != 0 || !entry.is_character_file(ec)) continue;
    if (auto chip = detail::probe_chip(entry.path().string()))
      chips.push_back(std::move(*chip));
    else
      chips.push_back(ChipInfo{entry.path().string(), name, "cannot open: " + chip.error().message, {}});
  }
  std::sort(chips.begin(), chips.end(), [](const ChipInfo& a, const ChipInfo& b) { return a.name < b.name; });
  return chips;
}

HalResult<ResolvedLine> resolve_line(const LineAddress& address, const std::string& dev_dir) {
  auto chip = choose_chip(address, dev_dir);
  if (!chip) return std::unexpected(chip.error());
  if (address.offset) {
    if (*address.offset < chip->line_names.size()) return ResolvedLine{std::move(*chip), *address.offset};
    return std::unexpected(
        not_found("line " + std::to_string(*address.offset) + " is out of range: " + chip_title(*chip)));
  }
  const auto& names = chip->line_names;
  const auto it = std::find(names.begin(), names.end(), address.line_name);
  if (address.line_name.empty() || it == names.end()) {
    return std::unexpected(not_found("no line named '" + address.line_name + "' on chip " + chip->name + " [" +
                                     chip->label + "]; " + list_lines(*chip)));
  }
  const auto offset = static_cast<unsigned>(it - names.begin());
  return ResolvedLine{std::move(*chip), offset};
}

bool EdgeDebouncer::keep(const EdgeEvent& event) {
  if (last_ && last_->rising == event.rising) return false;
  if (last_ && event.timestamp_ns - last_->timestamp_ns < window_ns_) return false;
  last_ = event;
  return true;
}

}  // namespace mcpud::hal
