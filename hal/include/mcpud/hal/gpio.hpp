// SPDX-License-Identifier: MIT
// GPIO lines on a Linux GPIO character device (libgpiod v1 or v2, chosen at build
// time): finding a line by chip label/name/path and line name/offset, and
// requesting it as an output or an input with edge events.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcpud/hal/pins.hpp"

namespace mcpud::hal {

enum class Bias { AsIs, Disabled, PullUp, PullDown };
enum class Drive { PushPull, OpenDrain, OpenSource };
enum class Edges { None, Rising, Falling, Both };

// Where a line is: a chip (label, name such as "gpiochip0", or /dev path) and the
// line's name or offset. `chip_labels` are tried in order when `chip` is empty
// (a board's header chip under its known labels).
struct LineAddress {
  std::string chip;
  std::vector<std::string> chip_labels;
  std::optional<unsigned> offset;
  std::string line_name;

  std::string describe() const;
};

struct OutputSpec {
  bool active_low = false;
  Drive drive = Drive::PushPull;
  bool initial = false;  // logical level driven when the line is requested
};

struct InputSpec {
  bool active_low = false;
  Bias bias = Bias::AsIs;
  Edges edges = Edges::None;
  std::uint32_t debounce_us = 0;  // kernel debounce on v2, software on v1
};

struct EdgeEvent {
  bool rising = false;  // of the logical (active-low adjusted) value
  std::int64_t timestamp_ns = 0;
};

// A requested input line. With edges, event_fd() becomes readable when events are
// pending and read_events() returns them without blocking.
class GpioInput : public DigitalInput {
 public:
  virtual int event_fd() const = 0;  // -1 without edge detection
  virtual HalResult<std::vector<EdgeEvent>> read_events() = 0;
};

// A chip as the kernel describes it; for error messages and listings.
struct ChipInfo {
  std::string path;                     // /dev/gpiochipN
  std::string name;                     // gpiochipN
  std::string label;                    // e.g. pinctrl-bcm2711, gpio-sim.0-node0
  std::vector<std::string> line_names;  // "" for unnamed lines
};

// Which libgpiod API this build uses: "libgpiod v1" or "libgpiod v2".
std::string_view gpio_backend_name();

// Every GPIO chip under `dev_dir` (default /dev), sorted by name.
std::vector<ChipInfo> list_gpio_chips(const std::string& dev_dir = "/dev");

// Resolves an address to a chip and an offset. Errors say what exists instead
// (the chips and their labels, or the chip's line names).
struct ResolvedLine {
  ChipInfo chip;
  unsigned offset = 0;
};
HalResult<ResolvedLine> resolve_line(const LineAddress& address, const std::string& dev_dir = "/dev");

// Requests the line (held until the returned object is destroyed). `consumer`
// is shown by gpioinfo next to the line.
HalResult<std::unique_ptr<DigitalOutput>> request_output(const ResolvedLine& line, const OutputSpec& spec,
                                                         const std::string& consumer);
HalResult<std::unique_ptr<GpioInput>> request_input(const ResolvedLine& line, const InputSpec& spec,
                                                    const std::string& consumer);

// Drops edges closer than `window_ns` to the last one kept and, when both edges
// are reported, edges that do not change the level (software debounce where the
// kernel cannot do it).
class EdgeDebouncer {
 public:
  EdgeDebouncer(std::int64_t window_ns, bool both_edges) : window_ns_(window_ns), both_edges_(both_edges) {}
  bool keep(const EdgeEvent& event);

 private:
  std::int64_t window_ns_;
  bool both_edges_;
  std::optional<EdgeEvent> last_;
};

}  // namespace mcpud::hal
