// SPDX-License-Identifier: MIT
// Encoding and streaming decoding of `##START ... ##END` frames.
#include "start_frame.hpp"

#include <algorithm>
#include <cstdio>

#include "mcpud/core/enum_names.hpp"

namespace mcpud::uplinks {
namespace {

constexpr EnumNames<FrameType, 8> kFrameTypeNames{{{FrameType::Auth, "AUTH"},
                                                   {FrameType::Audio, "AUDIO_FRAME"},
                                                   {FrameType::EndFrame, "END_FRAME"},
                                                   {FrameType::Text, "TEXT"},
                                                   {FrameType::Status, "STATUS"},
                                                   {FrameType::Mcp, "MCP"},
                                                   {FrameType::Speak, "SPEAK"},
                                                   {FrameType::Listen, "LISTEN"}}};

// A marker split across reads leaves at most this many of its bytes at the end.
constexpr std::size_t kMarkerTail = kFrameStart.size() - 1;

bool printable(char c) { return c >= 0x20 && c <= 0x7e; }
bool digit(char c) { return c >= '0' && c <= '9'; }

// Bytes at the end of `text` that may begin a `##START` still to come.
std::size_t start_prefix_at_end(std::string_view text) {
  for (std::size_t n = std::min(kMarkerTail, text.size()); n > 0; --n) {
    if (kFrameStart.starts_with(text.substr(text.size() - n))) return n;
  }
  return 0;
}

std::string hex_byte(unsigned char c) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", c);
  return text;
}

// Why the header at the front of `buffer` cannot start a frame; empty when it can.
std::string header_problem(std::string_view buffer) {
  const auto type = static_cast<unsigned char>(buffer[kFrameStart.size()]);
  if (type < 0x01 || type > 0x08) return "bad frame type byte " + hex_byte(type) + " (expected 0x01..0x08)";
  const auto task_id = buffer.substr(kFrameStart.size() + 1, kTaskIdBytes);
  if (!std::all_of(task_id.begin(), task_id.end(), printable)) return "TaskID holds a byte that is not printable ASCII";
  const auto seq = buffer.substr(kFrameStart.size() + 1 + kTaskIdBytes, kSeqBytes);
  if (!std::all_of(seq.begin(), seq.end(), digit)) {
    std::string shown;
    for (const char c : seq) shown += printable(c) ? std::string(1, c) : hex_byte(static_cast<unsigned char>(c));
    return "Seq '" + shown + "' is not 4 digits";
  }
  return {};
}

}  // namespace

std::string_view frame_type_name(FrameType type) { return name_of(kFrameTypeNames, type, "UNKNOWN"); }

std::expected<std::string, std::string> encode_frame(FrameType type, std::string_view task_id, unsigned seq,
                                                     std::string_view content) {
  if (task_id.size() > kTaskIdBytes)
    return std::unexpected("TaskID '" + std::string(task_id) + "' is longer than 8 characters");
  if (!std::all_of(task_id.begin(), task_id.end(), printable)) {
    return std::unexpected("TaskID holds a byte that is not printable ASCII");
  }
  if (seq > 9999) return std::unexpected("Seq " + std::to_string(seq) + " does not fit in 4 digits");
  if (content.find(kFrameStart) != std::string_view::npos || content.find(kFrameEnd) != std::string_view::npos) {
    return std::unexpected("the content holds a frame marker (##START or ##END), which the protocol cannot carry");
  }
  char seq_text[8];
  std::snprintf(seq_text, sizeof seq_text, "%04u", seq);
  std::string frame;
  frame.reserve(kFrameHeaderBytes + content.size() + kFrameEnd.size());
  frame.append(kFrameStart);
  frame.push_back(static_cast<char>(type));
  frame.append(kTaskIdBytes - task_id.size(), '0');
  frame.append(task_id);
  frame.append(seq_text, kSeqBytes);
  frame.append(content);
  frame.append(kFrameEnd);
  return frame;
}

std::string frame_safe_json(std::string json_text) {
  if (json_text.find("##") == std::string::npos) return json_text;
  std::string out;
  out.reserve(json_text.size() + 16);
  for (const char c : json_text) {
    if (c == '#') {
      out += "\\u0023";
    } else {
      out += c;
    }
  }
  return out;
}

StartFrameDecoder::StartFrameDecoder(std::size_t max_frame_bytes)
    : max_frame_bytes_(std::max(max_frame_bytes, kFrameHeaderBytes + kFrameEnd.size())) {}

void StartFrameDecoder::feed(std::string_view bytes, std::vector<Decoded>& out) {
  buffer_.append(bytes);
  while (step(out)) {
  }
}

bool StartFrameDecoder::step(std::vector<Decoded>& out) {
  if (discarding_) return discard(out);
  if (!in_frame_) return seek_start(out);
  return take_frame(out);
}

bool StartFrameDecoder::seek_start(std::vector<Decoded>& out) {
  const auto start = buffer_.find(kFrameStart);
  if (start == std::string::npos) {
    const auto garbage = buffer_.size() - start_prefix_at_end(buffer_);
    garbage_ += garbage;
    skipped_total_ += garbage;
    buffer_.erase(0, garbage);
    return false;
  }
  garbage_ += start;
  skipped_total_ += start;
  buffer_.erase(0, start);
  flush_garbage(out);
  in_frame_ = true;
  scanned_ = kFrameHeaderBytes;
  return true;
}

bool StartFrameDecoder::take_frame(std::vector<Decoded>& out) {
  if (buffer_.size() < kFrameHeaderBytes) return false;
  if (auto why = header_problem(buffer_); !why.empty()) {
    drop(kFrameStart.size(), std::move(why), out);  // the rest is skipped up to the next ##START
    in_frame_ = false;
    return true;
  }
  const auto end = buffer_.find(kFrameEnd, scanned_);
  const auto next_start = buffer_.find(kFrameStart, scanned_);
  if (next_start != std::string::npos && next_start < end) {
    drop(next_start, "dropped a frame cut off by the next ##START", out);
    scanned_ = kFrameHeaderBytes;
    return true;
  }
  if (end != std::string::npos) {
    const auto total = end + kFrameEnd.size();
    if (total > max_frame_bytes_) {
      drop(total,
           "dropped a frame of " + std::to_string(total) + " bytes (more than the " + std::to_string(max_frame_bytes_) +
               " allowed)",
           out);
    } else {
      StartFrame frame;
      frame.type = static_cast<FrameType>(buffer_[kFrameStart.size()]);
      frame.task_id = buffer_.substr(kFrameStart.size() + 1, kTaskIdBytes);
      frame.seq = static_cast<unsigned>(std::stoul(buffer_.substr(kFrameStart.size() + 1 + kTaskIdBytes, kSeqBytes)));
      frame.content = buffer_.substr(kFrameHeaderBytes, end - kFrameHeaderBytes);
      buffer_.erase(0, total);
      out.emplace_back(std::move(frame));
    }
    in_frame_ = false;
    return true;
  }
  if (buffer_.size() > max_frame_bytes_) {
    // Too long already: throw it away as it streams past, keeping only what
    // may be the beginning of a marker.
    in_frame_ = false;
    discarding_ = true;
    dropped_ = 0;
    const auto thrown = buffer_.size() - kMarkerTail;
    dropped_ += thrown;
    skipped_total_ += thrown;
    buffer_.erase(0, thrown);
    return true;
  }
  scanned_ = std::max(kFrameHeaderBytes, buffer_.size() - std::min(buffer_.size(), kMarkerTail));
  return false;
}

bool StartFrameDecoder::discard(std::vector<Decoded>& out) {
  const auto end = buffer_.find(kFrameEnd);
  const auto next_start = buffer_.find(kFrameStart);
  const bool at_start = next_start != std::string::npos && next_start < end;
  if (!at_start && end == std::string::npos) {
    const auto thrown = buffer_.size() - std::min(buffer_.size(), kMarkerTail);
    dropped_ += thrown;
    skipped_total_ += thrown;
    buffer_.erase(0, thrown);
    return false;
  }
  const auto thrown = at_start ? next_start : end + kFrameEnd.size();
  dropped_ += thrown;
  skipped_total_ += thrown;
  buffer_.erase(0, thrown);
  out.emplace_back(FrameProblem{"dropped a frame longer than " + std::to_string(max_frame_bytes_) + " bytes (" +
                                    std::to_string(dropped_) + " bytes skipped)",
                                dropped_});
  discarding_ = false;
  in_frame_ = at_start;
  scanned_ = kFrameHeaderBytes;
  return true;
}

void StartFrameDecoder::drop(std::size_t bytes, std::string why, std::vector<Decoded>& out) {
  buffer_.erase(0, bytes);
  skipped_total_ += bytes;
  out.emplace_back(FrameProblem{std::move(why), bytes});
  scanned_ = kFrameHeaderBytes;
}

void StartFrameDecoder::flush_garbage(std::vector<Decoded>& out) {
  if (garbage_ == 0) return;
  out.emplace_back(FrameProblem{"skipped " + std::to_string(garbage_) + " bytes that are not a frame", garbage_});
  garbage_ = 0;
}

}  // namespace mcpud::uplinks
