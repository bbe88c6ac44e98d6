// SPDX-License-Identifier: MIT
// IIO ADC channels: raw counts and millivolts = (raw + offset) * scale.
#include "mcpud/hal/iio_adc.hpp"

#include <iio.h>

#include <cerrno>
#include <cstring>

namespace mcpud::hal {
namespace {

std::string errno_text(int error) {
  char buffer[128] = {};
  iio_strerror(error, buffer, sizeof buffer);
  return buffer;
}

const char* or_empty(const char* text) { return text ? text : ""; }

std::string list_devices(const iio_context* ctx) {
  const unsigned count = iio_context_get_devices_count(ctx);
  if (count == 0) return "the context has no IIO devices";
  std::string text = "devices:";
  for (unsigned i = 0; i < count; ++i) {
    const auto* dev = iio_context_get_device(ctx, i);
    text += std::string(i ? ", " : " ") + or_empty(iio_device_get_id(dev));
    if (const char* name = iio_device_get_name(dev)) text += std::string(" (") + name + ")";
  }
  return text;
}

std::string list_input_channels(const iio_device* dev) {
  std::string text;
  for (unsigned i = 0; i < iio_device_get_channels_count(dev); ++i) {
    const auto* ch = iio_device_get_channel(dev, i);
    if (iio_channel_is_output(ch) || !iio_channel_find_attr(ch, "raw")) continue;
    text += (text.empty() ? "" : ", ") + std::string(or_empty(iio_channel_get_id(ch)));
  }
  return text.empty() ? "it has no input channels with a raw value" : "its input channels: " + text;
}

iio_device* find_device(const iio_context* ctx, const std::string& key) {
  for (unsigned i = 0; i < iio_context_get_devices_count(ctx); ++i) {
    auto* dev = iio_context_get_device(ctx, i);
    if (key == or_empty(iio_device_get_id(dev)) || key == or_empty(iio_device_get_name(dev)) ||
        key == or_empty(iio_device_get_label(dev))) {
      return dev;
    }
  }
  return nullptr;
}

class IioChannel final : public AnalogInput {
 public:
  IioChannel(std::shared_ptr<iio_context> ctx, const iio_channel* ch, std::string where)
      : ctx_(std::move(ctx)), ch_(ch), where_(std::move(where)) {}

  HalResult<AdcReading> read() override {
    long long raw = 0;
    if (const int r = iio_channel_attr_read_longlong(ch_, "raw", &raw); r < 0)
      return std::unexpected(failure("raw", -r));
    double offset = 0;
    double scale = 1;
    if (iio_channel_find_attr(ch_, "offset")) {
      if (const int r = iio_channel_attr_read_double(ch_, "offset", &offset); r < 0)
        return std::unexpected(failure("offset", -r));
    }
    if (iio_channel_find_attr(ch_, "scale")) {
      if (const int r = iio_channel_attr_read_double(ch_, "scale", &scale); r < 0)
        return std::unexpected(failure("scale", -r));
    }
    return AdcReading{static_cast<std::int64_t>(raw), (static_cast<double>(raw) + offset) * scale};
  }

 private:
  HalError failure(const char* attr, int error) const {
    const bool gone = error == ENODEV || error == ENOENT || error == ENXIO || error == EPIPE || error == ECONNRESET;
    return HalError{gone ? HalError::Kind::Disconnected : HalError::Kind::Io,
                    where_ + (gone ? " is gone" : "") + ": reading " + attr + ": " + errno_text(error)};
  }

  std::shared_ptr<iio_context> ctx_;  // keeps the channel's memory alive
  const iio_channel* ch_;
  std::string where_;
};

}  // namespace

IioBoard::IioBoard() = default;
IioBoard::~IioBoard() = default;

HalResult<iio_context*> IioBoard::context(const std::string& uri) {
  if (auto it = contexts_.find(uri); it != contexts_.end()) return it->second.get();
  errno = 0;
  iio_context* ctx = uri.empty() ? iio_create_local_context() : iio_create_context_from_uri(uri.c_str());
  if (!ctx) {
    const int error = errno ? errno : EIO;
    return std::unexpected(
        HalError{HalError::Kind::NotFound,
                 (uri.empty() ? std::string("local IIO context") : "IIO context " + uri) + ": " + errno_text(error)});
  }
  contexts_.emplace(uri, std::shared_ptr<iio_context>(ctx, iio_context_destroy));
  return ctx;
}

HalResult<std::unique_ptr<AnalogInput>> IioBoard::open_channel(const IioChannelSpec& spec) {
  auto ctx = context(spec.uri);
  if (!ctx) return std::unexpected(ctx.error());
  const auto* dev = find_device(*ctx, spec.device);
  if (!dev)
    return std::unexpected(
        HalError{HalError::Kind::NotFound, "no IIO device '" + spec.device + "'; " + list_devices(*ctx)});
  const auto* ch = iio_device_find_channel(dev, spec.channel.c_str(), false);
  if (!ch || !iio_channel_find_attr(ch, "raw")) {
    return std::unexpected(HalError{HalError::Kind::NotFound, "IIO device '" + spec.device +
                                                                  "' has no input channel '" + spec.channel +
                                                                  "' with a raw value; " + list_input_channels(dev)});
  }
  return std::make_unique<IioChannel>(contexts_.at(spec.uri), ch, "IIO " + spec.device + "/" + spec.channel);
}

}  // namespace mcpud::hal
