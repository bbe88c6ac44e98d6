// SPDX-License-Identifier: MIT
// The `##START` frame of the services protocol: `##START` + type byte + 8-char
// TaskID + 4-digit Seq + content + `##END`, its encoder and a streaming decoder.
// Plain code, no I/O; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcpud::uplinks {

inline constexpr std::string_view kFrameStart = "##START";
inline constexpr std::string_view kFrameEnd = "##END";
inline constexpr std::size_t kTaskIdBytes = 8;
inline constexpr std::size_t kSeqBytes = 4;
inline constexpr std::size_t kFrameHeaderBytes = 7 + 1 + kTaskIdBytes + kSeqBytes;  // up to the content
inline constexpr std::string_view kSystemTaskId = "00000000";

enum class FrameType : std::uint8_t {
  Auth = 0x01,
  Audio = 0x02,
  EndFrame = 0x03,
  Text = 0x04,
  Status = 0x05,
  Mcp = 0x06,
  Speak = 0x07,
  Listen = 0x08,
};
std::string_view frame_type_name(FrameType type);

struct StartFrame {
  FrameType type = FrameType::Text;
  std::string task_id;  // 8 characters
  unsigned seq = 0;     // 0..9999
  std::string content;
  bool operator==(const StartFrame&) const = default;
};

// Encodes one frame. `task_id` shorter than 8 characters is zero-filled on the
// left ("7" -> "00000007"); longer, or with bytes outside printable ASCII, is an
// error, as are a Seq above 9999 and content holding `##START` or `##END`
// (the protocol has no escaping: the peer would cut the frame there).
std::expected<std::string, std::string> encode_frame(FrameType type, std::string_view task_id, unsigned seq,
                                                     std::string_view content);
// JSON text safe to carry as content: any '#' (it can only occur inside JSON
// strings) becomes \u0023 when the text would otherwise hold a frame marker.
std::string frame_safe_json(std::string json_text);

// Something the decoder could not use: bytes skipped between frames, a header
// with a bad type byte or Seq, an over-long frame dropped. `skipped` counts
// the bytes thrown away.
struct FrameProblem {
  std::string message;
  std::size_t skipped = 0;
};
using Decoded = std::variant<StartFrame, FrameProblem>;

// Feed bytes as they arrive (split anywhere, several frames per read); complete
// frames and problems come out in stream order. Holds at most `max_frame_bytes`
// (a whole frame with its markers); a longer frame is dropped and decoding
// resynchronises on its `##END` or the next `##START`. A `##START` inside a
// frame means that frame was cut off: it is dropped and the new one decoded.
class StartFrameDecoder {
 public:
  explicit StartFrameDecoder(std::size_t max_frame_bytes);  // [uplink.services] max_frame_bytes

  // Appends what `bytes` completes to `out`.
  void feed(std::string_view bytes, std::vector<Decoded>& out);

  std::size_t buffered_bytes() const { return buffer_.size(); }
  std::uint64_t skipped_total() const { return skipped_total_; }
  std::size_t max_frame_bytes() const { return max_frame_bytes_; }

 private:
  bool step(std::vector<Decoded>& out);
  bool seek_start(std::vector<Decoded>& out);
  bool take_frame(std::vector<Decoded>& out);
  bool discard(std::vector<Decoded>& out);
  void drop(std::size_t bytes, std::string why, std::vector<Decoded>& out);
  void flush_garbage(std::vector<Decoded>& out);

  std::size_t max_frame_bytes_;
  std::string buffer_;       // from a `##START` on (or a possible prefix of one)
  bool in_frame_ = false;    // buffer_ starts with a `##START`
  bool discarding_ = false;  // inside an over-long frame, skipping to its end
  std::size_t scanned_ = 0;  // bytes of buffer_ already searched for a marker
  std::size_t garbage_ = 0;  // bytes skipped since the last frame, not yet reported
  std::size_t dropped_ = 0;  // bytes of the over-long frame thrown away so far
  std::uint64_t skipped_total_ = 0;
};

}  // namespace mcpud::uplinks
