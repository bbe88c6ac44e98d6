// SPDX-License-Identifier: MIT
// Small sysfs text attributes, and sensors that survive hot removal.
#include "sensors/sysfs_text.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <system_error>

namespace mcpud::hal {
namespace {

bool means_gone(int error) { return error == ENOENT || error == ENODEV || error == ENXIO || error == ENOTDIR; }

HalError read_failure(const std::filesystem::path& path, int error) {
  return HalError{means_gone(error) ? HalError::Kind::Disconnected : HalError::Kind::Io,
                  "reading " + path.string() + ": " + std::strerror(error)};
}

}  // namespace

HalResult<std::string> read_sysfs_text(const std::filesystem::path& path) {
  errno = 0;
  std::ifstream in(path);
  if (!in) return std::unexpected(read_failure(path, errno ? errno : ENOENT));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // A driver that fails a read (the device stopped answering) fails the stream.
  if (in.bad()) return std::unexpected(read_failure(path, errno ? errno : EIO));
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

HalResult<double> read_sysfs_number(const std::filesystem::path& path) {
  auto text = read_sysfs_text(path);
  if (!text) return std::unexpected(text.error());
  const char* begin = text->c_str();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(begin, &end);
  if (end == begin || *end != '\0' || errno == ERANGE)
    return std::unexpected(HalError{HalError::Kind::Io, path.string() + ": expected a number, read '" + *text + "'"});
  return value;
}

std::string read_sysfs_or_empty(const std::filesystem::path& path) {
  auto text = read_sysfs_text(path);
  return text ? *text : std::string();
}

std::vector<std::string> list_dir(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::filesystem::path find_entry(const std::filesystem::path& dir, std::string_view prefix, const char* attribute,
                                 const std::string& key) {
  for (const auto& entry : list_dir(dir)) {
    if (!entry.starts_with(prefix)) continue;
    if (entry == key || read_sysfs_or_empty(dir / entry / attribute) == key) return dir / entry;
  }
  return {};
}

std::string list_entries(const std::filesystem::path& dir, std::string_view prefix, const char* attribute) {
  std::string text;
  for (const auto& entry : list_dir(dir)) {
    if (!entry.starts_with(prefix)) continue;
    text += (text.empty() ? "" : ", ") + entry;
    if (auto value = read_sysfs_or_empty(dir / entry / attribute); !value.empty()) text += " (" + value + ")";
  }
  return text.empty() ? "there is none" : text;
}

HalResult<std::filesystem::path> find_in_class(const SysfsRoot& root, const SysfsClass& where, const std::string& key) {
  const auto dir = std::filesystem::path(root.path) / where.dir;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return std::unexpected(HalError{HalError::Kind::NotFound, dir.string() + " does not exist: " + where.missing});
  }
  auto found = find_entry(dir, where.prefix, where.attribute, key);
  if (!found.empty()) return found;
  return std::unexpected(
      HalError{HalError::Kind::NotFound, "no " + std::string(where.entry) + " '" + key + "' in " + dir.string() + "; " +
                                             where.entries + ": " + list_entries(dir, where.prefix, where.attribute) +
                                             " (" + where.hint + "`cat " + dir.string() + "/" +
                                             std::string(where.prefix) + "*/" + where.attribute + "` lists them)"});
}

HalResult<double> read_sysfs_scaled(const std::filesystem::path& path, double factor) {
  auto value = read_sysfs_number(path);
  if (!value) return value;
  return *value * factor;
}

std::string leading_letters(const std::string& name) {
  std::size_t end = 0;
  while (end < name.size() && std::isalpha(static_cast<unsigned char>(name[end]))) ++end;
  return name.substr(0, end);
}

HalResult<std::unique_ptr<SensorInput>> after_first_read(std::unique_ptr<SensorInput> sensor) {
  if (auto first = sensor->read(); !first) return std::unexpected(first.error());
  return sensor;
}

HalResult<std::filesystem::path> RelocatingSensor::found_again(HalResult<std::filesystem::path> found,
                                                               const std::string& what) {
  if (found) return found;
  return std::unexpected(HalError{found.error().kind, what + " is gone: " + found.error().message});
}

HalResult<double> RelocatingSensor::read() {
  if (!dir_.empty()) {
    auto value = read_in(dir_);
    if (value || value.error().kind != HalError::Kind::Disconnected) return value;
    dir_.clear();
  }
  auto dir = locate();
  if (!dir) return std::unexpected(HalError{HalError::Kind::Disconnected, dir.error().message});
  dir_ = *dir;
  auto value = read_in(dir_);
  if (!value && value.error().kind == HalError::Kind::Disconnected) dir_.clear();
  return value;
}

}  // namespace mcpud::hal
