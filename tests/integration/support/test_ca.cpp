// SPDX-License-Identifier: MIT
#include "support/test_ca.hpp"

#include <cstdlib>

#include <gtest/gtest.h>

namespace mcpud::it {
namespace {

const std::string kEcKey = " -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes ";

bool run_openssl(const TempDir& dir, const std::string& log, const std::string& commands) {
  const std::string d = dir.path().string() + "/";
  const std::string script = "set -e; cd '" + d + "'; exec 2>" + log + ".log; " + commands;
  const int status = std::system(script.c_str());
  EXPECT_EQ(status, 0) << "openssl failed; see " << d << log << ".log";
  return status == 0;
}

std::string sign_server(const std::string& ca, const std::string& name) {
  return "openssl req" + kEcKey + "-keyout " + name + "-server.key -out " + name +
         "-server.csr -subj /CN=localhost; openssl x509 -req -in " + name + "-server.csr -CA " + ca +
         "-ca.pem -CAkey " + ca + "-ca.key -CAcreateserial -out " + name + "-server.pem -days 2 -extfile server.ext";
}

}  // namespace

bool make_certificates(const TempDir& dir, const std::string& name) {
  dir.write_file("server.ext", "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
  return run_openssl(dir, name,
                     "openssl req -x509" + kEcKey + "-keyout " + name + "-ca.key -out " + name +
                         "-ca.pem -days 2 -subj /CN=" + name + "-ca; " + sign_server(name, name));
}

bool renew_server_certificate(const TempDir& dir, const std::string& ca_name, const std::string& name) {
  return run_openssl(dir, name + "-renewal", sign_server(ca_name, name));
}

}  // namespace mcpud::it
