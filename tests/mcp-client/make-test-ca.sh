#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes a throwaway CA (ca.pem) and a server certificate it signed for
# localhost and 127.0.0.1 (server.pem, server.key) into DIR, for the HTTPS
# client tests: Node trusts the CA through NODE_EXTRA_CA_CERTS, as a host
# trusts a public one. Valid for two days; made anew on every run.
#   make-test-ca.sh DIR
set -euo pipefail
dir=$1
mkdir -p "$dir"
cd "$dir"
ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
openssl req -x509 "${ec[@]}" -keyout ca.key -out ca.pem -days 2 -subj /CN=mcpud-test-ca 2>/dev/null
openssl req "${ec[@]}" -keyout server.key -out server.csr -subj /CN=localhost 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 \
  -extfile server.ext 2>/dev/null
echo "make-test-ca: CA and server certificate in $dir"
