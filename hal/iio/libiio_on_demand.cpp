// SPDX-License-Identifier: MIT
// The libiio functions iio_adc.cpp calls, loaded from libiio.so.0 the first time
// one is called. Linked against libiio, every mcpud would map it and what it pulls
// in (avahi, libdbus, libusb, libxml2, libicu, much of it relocated and so
// private memory) even on a board without IIO ADC pins.
// The declarations and pointer types come from <iio.h>, so a signature that
// drifts fails to build.
#include <dlfcn.h>
#include <iio.h>

#include <cerrno>
#include <cstring>

namespace {

constexpr const char* kLibiio = "libiio.so.0";

void* libiio() {
  static void* const handle = dlopen(kLibiio, RTLD_NOW | RTLD_LOCAL);
  return handle;
}

// The function NAME of libiio as a pointer of type FN, or null when libiio or
// the symbol is missing (errno is then ELIBACC).
template <class Fn>
Fn resolve(const char* name) {
  void* handle = libiio();
  void* symbol = handle ? dlsym(handle, name) : nullptr;
  if (!symbol) errno = ELIBACC;
  return reinterpret_cast<Fn>(symbol);
}

}  // namespace

// Each entry point resolves its libiio counterpart once. The context constructors
// are the only way in: without libiio they return null (errno ELIBACC), so the
// other functions are never reached with a handle from nowhere.
#define MCPUD_LIBIIO_FORWARD(ret, name, params, args)           \
  extern "C" ret name params {                                  \
    static const auto real = resolve<decltype(&::name)>(#name); \
    return real(args);                                          \
  }
#define MCPUD_ARGS(...) __VA_ARGS__

extern "C" iio_context* iio_create_local_context(void) {
  static const auto real = resolve<decltype(&::iio_create_local_context)>("iio_create_local_context");
  if (!real) return nullptr;
  return real();
}

extern "C" iio_context* iio_create_context_from_uri(const char* uri) {
  static const auto real = resolve<decltype(&::iio_create_context_from_uri)>("iio_create_context_from_uri");
  if (!real) return nullptr;
  return real(uri);
}

extern "C" void iio_strerror(int err, char* dst, size_t len) {
  static const auto real = resolve<decltype(&::iio_strerror)>("iio_strerror");
  if (real) return real(err, dst, len);
  if (len == 0) return;
  const char* text = err == ELIBACC ? "cannot load libiio.so.0 (install libiio0)" : std::strerror(err);
  std::strncpy(dst, text, len - 1);
  dst[len - 1] = '\0';
}

MCPUD_LIBIIO_FORWARD(void, iio_context_destroy, (iio_context * ctx), ctx)
MCPUD_LIBIIO_FORWARD(unsigned int, iio_context_get_devices_count, (const iio_context* ctx), ctx)
MCPUD_LIBIIO_FORWARD(iio_device*, iio_context_get_device, (const iio_context* ctx, unsigned int index),
                     MCPUD_ARGS(ctx, index))
MCPUD_LIBIIO_FORWARD(const char*, iio_device_get_id, (const iio_device* dev), dev)
MCPUD_LIBIIO_FORWARD(const char*, iio_device_get_name, (const iio_device* dev), dev)
MCPUD_LIBIIO_FORWARD(const char*, iio_device_get_label, (const iio_device* dev), dev)
MCPUD_LIBIIO_FORWARD(unsigned int, iio_device_get_channels_count, (const iio_device* dev), dev)
MCPUD_LIBIIO_FORWARD(iio_channel*, iio_device_get_channel, (const iio_device* dev, unsigned int index),
                     MCPUD_ARGS(dev, index))
MCPUD_LIBIIO_FORWARD(iio_channel*, iio_device_find_channel, (const iio_device* dev, const char* name, bool output),
                     MCPUD_ARGS(dev, name, output))
MCPUD_LIBIIO_FORWARD(const char*, iio_channel_get_id, (const iio_channel* chn), chn)
MCPUD_LIBIIO_FORWARD(bool, iio_channel_is_output, (const iio_channel* chn), chn)
MCPUD_LIBIIO_FORWARD(const char*, iio_channel_find_attr, (const iio_channel* chn, const char* name),
                     MCPUD_ARGS(chn, name))
MCPUD_LIBIIO_FORWARD(int, iio_channel_attr_read_longlong, (const iio_channel* chn, const char* attr, long long* val),
                     MCPUD_ARGS(chn, attr, val))
MCPUD_LIBIIO_FORWARD(int, iio_channel_attr_read_double, (const iio_channel* chn, const char* attr, double* val),
                     MCPUD_ARGS(chn, attr, val))
