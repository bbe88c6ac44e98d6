// SPDX-License-Identifier: MIT
// Reading the small text attributes sysfs sensors expose, with errors that say
// whether the device went away, and a sensor that finds its directory again
// after a hot removal (an IIO or hwmon index may change when it comes back).
// Plain functions usable from any thread; a RelocatingSensor is used by one
// thread at a time (the event loop, or the sensor worker for a slow() one).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mcpud/hal/sensor.hpp"

namespace mcpud::hal {

// The file's text without trailing whitespace. A missing file or device
// (ENOENT, ENODEV, ENXIO) is Kind::Disconnected, other failures Kind::Io; the
// message names the path.
HalResult<std::string> read_sysfs_text(const std::filesystem::path& path);
// The file as one decimal number (integer or fraction); a non-number is Kind::Io.
HalResult<double> read_sysfs_number(const std::filesystem::path& path);
// The text of `path`, or "" when it cannot be read (optional attributes such as label).
std::string read_sysfs_or_empty(const std::filesystem::path& path);
// The names of the entries of `dir`, sorted; empty when it cannot be listed.
std::vector<std::string> list_dir(const std::filesystem::path& dir);

// The entry of `dir` whose name starts with `prefix` and whose `attribute` file
// reads `key` (or whose own name is `key`); empty when none does.
std::filesystem::path find_entry(const std::filesystem::path& dir, std::string_view prefix, const char* attribute,
                                 const std::string& key);
// "hwmon0 (cpu_thermal), hwmon1 (rpi_volt)": the entries with that prefix and
// what their `attribute` reads, or "there is none".
std::string list_entries(const std::filesystem::path& dir, std::string_view prefix, const char* attribute);

// A sysfs directory of devices found by what one of their files reads (hwmon
// chips by name, thermal zones by type), and the words that speak of it in errors.
struct SysfsClass {
  const char* dir;          // below the sysfs root: "class/hwmon"
  std::string_view prefix;  // of its entries' names: "hwmon"
  const char* attribute;    // the file read: "name"
  const char* missing;      // why `dir` may be missing: "the kernel has no hwmon support (CONFIG_HWMON)"
  const char* entry;        // one entry with its key: "hwmon chip named"
  const char* entries;      // "chips"
  const char* hint;         // said before how to list them: "check that its driver is loaded; ", or ""
};
// The entry of `where` below `root` whose attribute reads `key` (or whose name is
// `key`). NotFound when the directory is missing, or when no entry matches
// (naming those there are).
HalResult<std::filesystem::path> find_in_class(const SysfsRoot& root, const SysfsClass& where, const std::string& key);

// The file's number times `factor`.
HalResult<double> read_sysfs_scaled(const std::filesystem::path& path, double factor);
// "temp1" -> "temp", "voltage0" -> "voltage", "accel_x" -> "accel": the letters `name` begins with.
std::string leading_letters(const std::string& name);

// `sensor`, once a first read proves its files can be read (permissions) before
// the pin is offered; that read's error otherwise.
HalResult<std::unique_ptr<SensorInput>> after_first_read(std::unique_ptr<SensorInput> sensor);

// A sensor read from files of one directory that `locate` finds below `root` by
// the device's `key` (a chip name, a zone type, an id). When a read says the
// device is gone, the directory is looked up again (it may be back under another
// index); reads fail with Kind::Disconnected until it is.
class RelocatingSensor : public SensorInput {
 public:
  RelocatingSensor(Quantity quantity, SysfsRoot root, std::string key, std::filesystem::path dir)
      : quantity_(std::move(quantity)), root_(std::move(root)), key_(std::move(key)), dir_(std::move(dir)) {}
  HalResult<double> read() final;
  const Quantity& quantity() const final { return quantity_; }

 protected:
  const SysfsRoot& root() const { return root_; }
  const std::string& key() const { return key_; }
  // The device's directory now; NotFound when it is not there.
  virtual HalResult<std::filesystem::path> locate() const = 0;
  // The value (SI units) from the files in `dir`.
  virtual HalResult<double> read_in(const std::filesystem::path& dir) const = 0;
  // `found`, or why `what` is not found again ("<what> is gone: <why>"): for locate().
  static HalResult<std::filesystem::path> found_again(HalResult<std::filesystem::path> found, const std::string& what);

 private:
  Quantity quantity_;
  SysfsRoot root_;
  std::string key_;
  std::filesystem::path dir_;  // empty while the device is gone
};

}  // namespace mcpud::hal
