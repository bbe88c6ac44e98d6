#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Finds every mcpud on an MQTT broker (from their retained info and status) and
# calls one tool on each, in MCP/U form, over MQTT 5 request/response.
#
#   fleet-call.sh [-h HOST] [-p PORT] [-P PREFIX] [-u USER -w PASSWORD] TOOL [ARGS-JSON]
#   fleet-call.sh -h broker.lan get_info
#   fleet-call.sh gpio_write '{"pin": 2, "value": true}'
#
# Prints one line per online device: "<device> <JSON-RPC reply>". Needs
# mosquitto_sub and mosquitto_rr (Debian: mosquitto-clients).
set -euo pipefail

host=127.0.0.1 port=1883 prefix=mcpud wait_s=2 auth=()
while getopts "h:p:P:u:w:W:" option; do
  case "$option" in
    h) host=$OPTARG ;;
    p) port=$OPTARG ;;
    P) prefix=$OPTARG ;;
    u) auth+=(-u "$OPTARG") ;;
    w) auth+=(-P "$OPTARG") ;;
    W) wait_s=$OPTARG ;;
    *) sed -n '5,8p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '5,8p' "$0" >&2; exit 2; }
tool=$1 args=${2:-"{}"}
broker=(-h "$host" -p "$port" "${auth[@]}")

# Retained messages arrive at once on subscription; --retained-only stops at
# the first live one, -W bounds the wait when there is none.
mapfile -t online < <(mosquitto_sub "${broker[@]}" -t "$prefix/+/status" --retained-only -W "$wait_s" -F '%t %p' 2>/dev/null |
  awk '$2 == "online" { split($1, level, "/"); print level[length(level) - 1] }' | sort -u || true)
[ ${#online[@]} -gt 0 ] || { echo "no mcpud online under $prefix/ on $host:$port" >&2; exit 1; }

id=0
for device in "${online[@]}"; do
  id=$((id + 1))
  request="{\"jsonrpc\":\"2.0\",\"id\":$id,\"method\":\"$tool\",\"params\":$args}"
  reply=$(mosquitto_rr "${broker[@]}" -V 5 -q 1 -t "$prefix/$device/rpc/req" \
    -e "$prefix/$device/rpc/res/fleet-call-$$" -m "$request" -W "$wait_s" 2>/dev/null) || reply='{"error":"no reply"}'
  echo "$device $reply"
done
