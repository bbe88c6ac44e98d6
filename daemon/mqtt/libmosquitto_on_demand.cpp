// SPDX-License-Identifier: MIT
// The libmosquitto functions the MQTT client calls, loaded from libmosquitto.so.1
// the first time one is called. Linked against it, every mcpud would map
// libmosquitto and the OpenSSL it links (the largest part of an idle daemon's
// memory, its relocation tables read at start) on boards that configure no MQTT
// uplink. The
// declarations come from <mosquitto.h>, so a signature that drifts fails to build.
#include <dlfcn.h>
#include <mosquitto.h>

#include <cerrno>

namespace {

constexpr const char* kLibmosquitto = "libmosquitto.so.1";

void* libmosquitto() {
  static void* const handle = dlopen(kLibmosquitto, RTLD_NOW | RTLD_LOCAL);
  return handle;
}

// The function NAME of libmosquitto as a pointer of type FN, or null when the
// library or the symbol is missing.
template <class Fn>
Fn resolve(const char* name) {
  void* handle = libmosquitto();
  return reinterpret_cast<Fn>(handle ? dlsym(handle, name) : nullptr);
}

}  // namespace

// mosquitto_lib_init and mosquitto_new are the only ways in: without the library
// they fail (MOSQ_ERR_NOT_SUPPORTED; null with errno ELIBACC), so the other
// functions are never reached with a handle from nowhere.
extern "C" int mosquitto_lib_init(void) {
  static const auto real = resolve<decltype(&::mosquitto_lib_init)>("mosquitto_lib_init");
  return real ? real() : MOSQ_ERR_NOT_SUPPORTED;
}

extern "C" mosquitto* mosquitto_new(const char* id, bool clean_session, void* obj) {
  static const auto real = resolve<decltype(&::mosquitto_new)>("mosquitto_new");
  if (!real) {
    errno = ELIBACC;
    return nullptr;
  }
  return real(id, clean_session, obj);
}

// The error texts are asked for on failure paths, which a missing library reaches too.
extern "C" const char* mosquitto_strerror(int mosq_errno) {
  static const auto real = resolve<decltype(&::mosquitto_strerror)>("mosquitto_strerror");
  return real ? real(mosq_errno) : "libmosquitto.so.1 is not installed";
}

#define MCPUD_MOSQUITTO_FORWARD(ret, name, params, args)        \
  extern "C" ret name params {                                  \
    static const auto real = resolve<decltype(&::name)>(#name); \
    return real(args);                                          \
  }
#define MCPUD_ARGS(...) __VA_ARGS__

using OnConnect = void (*)(mosquitto*, void*, int, int, const mosquitto_property*);
using OnDisconnect = void (*)(mosquitto*, void*, int, const mosquitto_property*);
using OnMessage = void (*)(mosquitto*, void*, const mosquitto_message*, const mosquitto_property*);
using OnPublish = void (*)(mosquitto*, void*, int, int, const mosquitto_property*);
using PasswordCallback = int (*)(char*, int, int, void*);

MCPUD_MOSQUITTO_FORWARD(void, mosquitto_destroy, (mosquitto * mosq), mosq)
MCPUD_MOSQUITTO_FORWARD(const char*, mosquitto_connack_string, (int code), code)
MCPUD_MOSQUITTO_FORWARD(const char*, mosquitto_reason_string, (int code), code)
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_connect_bind_async,
                        (mosquitto * mosq, const char* host, int port, int keepalive, const char* bind_address),
                        MCPUD_ARGS(mosq, host, port, keepalive, bind_address))
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_disconnect, (mosquitto * mosq), mosq)
MCPUD_MOSQUITTO_FORWARD(void, mosquitto_connect_v5_callback_set, (mosquitto * mosq, OnConnect callback),
                        MCPUD_ARGS(mosq, callback))
MCPUD_MOSQUITTO_FORWARD(void, mosquitto_disconnect_v5_callback_set, (mosquitto * mosq, OnDisconnect callback),
                        MCPUD_ARGS(mosq, callback))
MCPUD_MOSQUITTO_FORWARD(void, mosquitto_message_v5_callback_set, (mosquitto * mosq, OnMessage callback),
                        MCPUD_ARGS(mosq, callback))
MCPUD_MOSQUITTO_FORWARD(void, mosquitto_publish_v5_callback_set, (mosquitto * mosq, OnPublish callback),
                        MCPUD_ARGS(mosq, callback))
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_int_option, (mosquitto * mosq, mosq_opt_t option, int value),
                        MCPUD_ARGS(mosq, option, value))
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_loop_misc, (mosquitto * mosq), mosq)
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_loop_read, (mosquitto * mosq, int max_packets), MCPUD_ARGS(mosq, max_packets))
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_loop_write, (mosquitto * mosq, int max_packets), MCPUD_ARGS(mosq, max_packets))
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_socket, (mosquitto * mosq), mosq)
MCPUD_MOSQUITTO_FORWARD(bool, mosquitto_want_write, (mosquitto * mosq), mosq)
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_property_add_binary,
                        (mosquitto_property * *list, int identifier, const void* value, uint16_t length),
                        MCPUD_ARGS(list, identifier, value, length))
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_property_add_string,
                        (mosquitto_property * *list, int identifier, const char* value),
                        MCPUD_ARGS(list, identifier, value))
MCPUD_MOSQUITTO_FORWARD(void, mosquitto_property_free_all, (mosquitto_property * *list), list)
MCPUD_MOSQUITTO_FORWARD(const mosquitto_property*, mosquitto_property_read_binary,
                        (const mosquitto_property* list, int identifier, void** value, uint16_t* length,
                         bool skip_first),
                        MCPUD_ARGS(list, identifier, value, length, skip_first))
MCPUD_MOSQUITTO_FORWARD(const mosquitto_property*, mosquitto_property_read_string,
                        (const mosquitto_property* list, int identifier, char** value, bool skip_first),
                        MCPUD_ARGS(list, identifier, value, skip_first))
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_publish_v5,
                        (mosquitto * mosq, int* mid, const char* topic, int length, const void* payload, int qos,
                         bool retain, const mosquitto_property* properties),
                        MCPUD_ARGS(mosq, mid, topic, length, payload, qos, retain, properties))
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_subscribe, (mosquitto * mosq, int* mid, const char* pattern, int qos),
                        MCPUD_ARGS(mosq, mid, pattern, qos))
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_tls_insecure_set, (mosquitto * mosq, bool value), MCPUD_ARGS(mosq, value))
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_tls_opts_set,
                        (mosquitto * mosq, int cert_reqs, const char* tls_version, const char* ciphers),
                        MCPUD_ARGS(mosq, cert_reqs, tls_version, ciphers))
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_tls_set,
                        (mosquitto * mosq, const char* ca_file, const char* ca_path, const char* cert_file,
                         const char* key_file, PasswordCallback password_callback),
                        MCPUD_ARGS(mosq, ca_file, ca_path, cert_file, key_file, password_callback))
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_username_pw_set, (mosquitto * mosq, const char* username, const char* password),
                        MCPUD_ARGS(mosq, username, password))
MCPUD_MOSQUITTO_FORWARD(int, mosquitto_will_set,
                        (mosquitto * mosq, const char* topic, int length, const void* payload, int qos, bool retain),
                        MCPUD_ARGS(mosq, topic, length, payload, qos, retain))
