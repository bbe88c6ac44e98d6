#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The audit in a real journal: systemd-journald in a mount namespace of its own
# (its sockets and files on tmpfs, the machine's journal untouched), mcpud with
# its stderr on the journal's stream as systemd gives it (systemd-cat), a
# gpio_write and an emergency stop over TCP; journalctl must show each as one
# record with its structured fields (docs/safety.md, "Audit"), and the log lines
# at their priorities. Needs root for the namespace; exit 77 (skipped) without.
#
# usage: journal_audit_test.sh MCPUD
set -euo pipefail
mcpud=${1:?usage: journal_audit_test.sh MCPUD}
journald=/lib/systemd/systemd-journald
if [[ $(id -u) != 0 ]] || [[ ! -x $journald ]] || ! command -v systemd-cat journalctl unshare python3 >/dev/null; then
  echo "skipped: needs root, systemd-journald, systemd-cat, journalctl, unshare and python3"
  exit 77
fi
if [[ ${MCPUD_JOURNAL_NAMESPACE:-} != 1 ]]; then
  if ! unshare --mount --propagation private true 2>/dev/null; then
    echo "skipped: no mount namespace here (a container without CAP_SYS_ADMIN)"
    exit 77
  fi
  exec unshare --mount --propagation private env MCPUD_JOURNAL_NAMESPACE=1 "$0" "$@"
fi

# /var/lib/mcpud: the stop this test latches stays in the namespace.
for dir in /run/systemd /run/log /var/log/journal /var/lib/mcpud; do
  mkdir -p "$dir"
  mount -t tmpfs tmpfs "$dir" || { echo "skipped: cannot mount tmpfs on $dir"; exit 77; }
done
mkdir -p /run/systemd/journal
"$journald" >/dev/null 2>&1 &
journald_pid=$!
mcpud_pid=""
trap 'kill $mcpud_pid $journald_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  [[ -S /run/systemd/journal/socket && -S /run/systemd/journal/stdout ]] && break
  sleep 0.05
done
if [[ ! -S /run/systemd/journal/stdout ]]; then
  echo "skipped: systemd-journald did not start here"
  exit 77
fi

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# systemd sets JOURNAL_STREAM to the stream's dev:ino when it connects stderr to
# the journal; systemd-cat connects it and leaves that to the program it runs.
# shellcheck disable=SC2016
systemd-cat --identifier=mcpud bash -c 'JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2) exec "$0" "$@"' \
  "$mcpud" --listen "127.0.0.1:$port" --unix "" --dbus none &
mcpud_pid=$!
for _ in $(seq 200); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.05
done

exec 3<>"/dev/tcp/127.0.0.1/$port"
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"gpio_write","params":{"pin":2,"value":true}}' \
  '{"jsonrpc":"2.0","id":2,"method":"emergency_stop","params":{"reason":"journal test"}}' >&3
read -r written <&3
read -r stopped <&3
exec 3>&-

journalctl --sync 2>/dev/null || true
python3 - "$written" "$stopped" <<'PY'
import json, subprocess, sys, time

def records():
    out = subprocess.run(["journalctl", "--no-pager", "-o", "json", "MCPUD_AUDIT=1"], capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]

failures = []
for reply, what in ((sys.argv[1], "gpio_write"), (sys.argv[2], "emergency_stop")):
    if '"result"' not in reply:
        failures.append(f"{what} over TCP: {reply}")
deadline = time.monotonic() + 10
found = []
while time.monotonic() < deadline:
    found = records()
    if any(r.get("MCPUD_AUDIT_KIND") == "estop" for r in found):
        break
    time.sleep(0.1)
call = next((r for r in found if r.get("MCPUD_AUDIT_KIND") == "call" and r.get("MCPUD_AUDIT_TOOL") == "gpio_write"), None)
stop = next((r for r in found if r.get("MCPUD_AUDIT_KIND") == "estop" and r.get("MCPUD_AUDIT_ACTION") == "stop"), None)
if not call:
    failures.append(f"no audit record of the gpio_write in the journal: {found}")
else:
    for key, want in (("MCPUD_AUDIT_DOOR", "tcp"), ("MCPUD_AUDIT_OUTCOME", "ok"),
                      ("MCPUD_AUDIT_ARGUMENTS", '{"pin":2,"value":true}'), ("PRIORITY", "5"),
                      ("SYSLOG_IDENTIFIER", "mcpud")):
        if call.get(key) != want:
            failures.append(f"the gpio_write record's {key} is {call.get(key)!r}, not {want!r}")
    if "gpio_write" not in call.get("MESSAGE", ""):
        failures.append(f"the record's MESSAGE names no tool: {call.get('MESSAGE')!r}")
if not stop:
    failures.append(f"no audit record of the emergency stop in the journal: {found}")
elif stop.get("MCPUD_AUDIT_REASON") != "journal test":
    failures.append(f"the stop's MCPUD_AUDIT_REASON is {stop.get('MCPUD_AUDIT_REASON')!r}")
seqs = sorted(int(r["MCPUD_AUDIT_SEQ"]) for r in found)
if seqs != list(range(1, len(seqs) + 1)):
    failures.append(f"sequence numbers with a gap: {seqs}")
# The log lines reach the journal at their own priority ("<4>" for a warning), not as text.
warnings = subprocess.run(["journalctl", "--no-pager", "-o", "cat", "-t", "mcpud", "-p", "warning"],
                          capture_output=True, text=True).stdout
if "EMERGENCY STOP by" not in warnings or "<4>" in warnings:
    failures.append(f"the stop's warning is not a priority-4 line of the journal: {warnings!r}")
for failure in failures:
    print("journal_audit:", failure, file=sys.stderr)
if failures:
    sys.exit(1)
print(f"journal_audit: {len(found)} audit records in the journal, fields and priorities as documented")
PY
