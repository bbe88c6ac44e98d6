// SPDX-License-Identifier: MIT
#include "support/tls_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <memory>

namespace mcpud::it {
namespace {

int connect_loopback(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  const timeval timeout{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  return fd;
}

std::string openssl_error() {
  char text[256];
  ERR_error_string_n(ERR_get_error(), text, sizeof text);
  return text;
}

std::string serial_of(SSL* ssl) {
  X509* certificate = SSL_get1_peer_certificate(ssl);
  if (!certificate) return {};
  BIGNUM* number = ASN1_INTEGER_to_BN(X509_get0_serialNumber(certificate), nullptr);
  char* hex = BN_bn2hex(number);
  std::string out = hex;
  OPENSSL_free(hex);
  BN_free(number);
  X509_free(certificate);
  return out;
}

}  // namespace

TlsExchange tls_exchange(int port, const std::string& ca_file, const std::string& request) {
  TlsExchange out;
  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> context(SSL_CTX_new(TLS_client_method()), SSL_CTX_free);
  if (SSL_CTX_load_verify_locations(context.get(), ca_file.c_str(), nullptr) != 1) {
    out.error = "cannot load " + ca_file;
    return out;
  }
  SSL_CTX_set_verify(context.get(), SSL_VERIFY_PEER, nullptr);
  const int fd = connect_loopback(port);
  if (fd < 0) {
    out.error = "cannot connect";
    return out;
  }
  std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(context.get()), SSL_free);
  SSL_set_fd(ssl.get(), fd);
  SSL_set_tlsext_host_name(ssl.get(), "localhost");
  SSL_set1_host(ssl.get(), "localhost");
  if (SSL_connect(ssl.get()) != 1) {
    out.error = openssl_error();
    ::close(fd);
    return out;
  }
  out.secured = true;
  out.serial = serial_of(ssl.get());
  if (SSL_write(ssl.get(), request.data(), static_cast<int>(request.size())) <= 0) out.error = openssl_error();
  char buffer[4096];
  for (int got; (got = SSL_read(ssl.get(), buffer, sizeof buffer)) > 0;) out.reply.append(buffer, got);
  ::close(fd);
  return out;
}

}  // namespace mcpud::it
