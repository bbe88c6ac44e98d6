#!/bin/bash
# SPDX-License-Identifier: MIT
# Debian roots for the platform tests: made once with debootstrap, cached in the
# build tree, and entered with the source tree and a compiler cache mounted.
# Sourced by the scripts of tests/platform; needs root (debootstrap, mount, chroot).

# The Debian mirror apt already uses for SUITE, or for the host's own suite
# (deb822 .sources or one-line format); deb.debian.org otherwise.
debian_mirror() {
  local suite=$1 mirror=${MCPUD_DEBIAN_MIRROR:-}
  if [ -z "$mirror" ]; then
    mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
      awk '/^URIs:/ && $2 ~ /\/debian\/?$/ {print $2}' | head -1)
  fi
  if [ -z "$mirror" ]; then
    mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      awk '$1 == "deb" && $2 ~ /\/debian\/?$/ {print $2}' | head -1)
  fi
  echo "${mirror:-http://deb.debian.org/debian}"
}

# Exits 77 (skipped) unless run as root, and 2 unless WORK lies inside SOURCE
# (the source tree is what in_root mounts in a root, the work tree with it).
require_root_and_work() {
  local work=$1 source=$2
  if [ "$(id -u)" -ne 0 ]; then
    echo "platform: needs root for debootstrap, mount and chroot; skipped" >&2
    exit 77
  fi
  case "$work" in
    "$source"/*) ;;
    *) echo "platform: WORK must lie inside the source tree $source (it is mounted in the root)" >&2; exit 2 ;;
  esac
}

# Makes ROOT (debootstrap --variant=minbase SUITE) unless a complete one is there.
# Services never start inside (policy-rc.d), and apt resolves names as the host does.
ensure_root() {
  local suite=$1 root=$2 mirror
  if [ ! -e "$root/.complete" ]; then
    command -v debootstrap >/dev/null || { echo "platform: debootstrap missing (apt install debootstrap)" >&2; return 1; }
    mirror=$(debian_mirror "$suite")
    echo "platform: debootstrap $suite from $mirror into $root"
    rm -rf "$root.tmp"
    mkdir -p "$(dirname "$root")"
    nice -n 15 debootstrap --variant=minbase "$suite" "$root.tmp" "$mirror" >"$root.log" 2>&1 || {
      tail -n 30 "$root.log" >&2
      echo "platform: debootstrap failed; log in $root.log" >&2
      return 1
    }
    rm -rf "$root.tmp"/var/cache/apt/archives/*.deb
    touch "$root.tmp/.complete"
    mv "$root.tmp" "$root"
  fi
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod +x "$root/usr/sbin/policy-rc.d"
  cp -L /etc/resolv.conf "$root/etc/resolv.conf"
}

# Runs COMMAND... in ROOT, niced, with /proc, /dev and /sys, the source tree
# SOURCE at the same path, and CCACHE (a directory) as the compiler cache. The
# mounts live in a mount namespace of their own and vanish with the command.
in_root() {
  local root=$1 source=$2 cache=$3
  shift 3
  mkdir -p "$root$source" "$root/ccache" "$cache"
  nice -n 15 unshare --mount --propagation private -- /bin/bash -c '
    set -e
    root=$1 source=$2 cache=$3
    shift 3
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount --rbind /sys "$root/sys"
    mount --bind "$source" "$root$source"
    mount --bind "$cache" "$root/ccache"
    exec chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/usr/sbin:/bin:/sbin HOME=/root \
      LC_ALL=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
      CCACHE_DIR=/ccache CCACHE_BASEDIR="$source" CCACHE_MAXSIZE=5G "$@"
  ' in_root "$root" "$source" "$cache" "$@"
}

# Installs in ROOT what cross-building for arm64 needs: the package's own build
# dependencies for arm64 (debian/control, without the tests' <!nocheck> ones), the
# cross compiler, ccache, qemu-user, python3 (the protocol check) and the packaging
# tools, plus EXTRA... (e.g. :arm64 test libraries). Output goes to LOG.
install_arm64_deps() {
  local root=$1 source=$2 cache=$3 log=$4
  shift 4
  in_root "$root" "$source" "$cache" /bin/bash -c '
    set -e
    cd "$1"
    shift
    scripts/install-deps.sh package
    dpkg --print-foreign-architectures | grep -qx arm64 || { dpkg --add-architecture arm64; apt-get update -qq; }
    missing=""
    for package in "$@"; do dpkg -s "$package" >/dev/null 2>&1 || missing=yes; done
    if [ -n "$missing" ] || ! dpkg-checkbuilddeps -a arm64 -P nocheck debian/control 2>/dev/null ||
       ! command -v aarch64-linux-gnu-g++ >/dev/null || ! command -v qemu-aarch64 >/dev/null ||
       ! command -v ccache >/dev/null || ! command -v python3 >/dev/null; then
      apt-get update -qq
      apt-get install -y -qq --no-install-recommends crossbuild-essential-arm64 qemu-user ccache python3 "$@"
      apt-get build-dep -y -qq --no-install-recommends -a arm64 -P nocheck ./
    fi' deps "$source" "$@" >"$log" 2>&1 || {
    tail -n 30 "$log" >&2
    echo "platform: installing the arm64 build dependencies failed; log in $log" >&2
    return 1
  }
}

# The unit test suites, one per directory of tests/unit (CMake targets LAYER_tests).
unit_layers() {
  local dir
  for dir in "$1"/tests/unit/*/; do basename "$dir"; done
}

# Runs the gtest binaries BINARY... one after the other (each prefixed by
# RUNNER..., e.g. a qemu-user command, when PLATFORM_RUNNER is set) and prints one
# line per suite with its counts; returns non-zero when any test failed. A suite
# given as BINARY:N runs as N gtest shards at the same time: the integration
# suites mostly wait on sockets and child daemons, so one process leaves a core idle.
# Totals land in PLATFORM_PASSED and PLATFORM_FAILED.
run_suites() {
  local root=$1 source=$2 cache=$3 log_dir=$4
  shift 4
  local suite binary shards name shard status=0 finished
  local -a pids logs
  PLATFORM_PASSED=0 PLATFORM_FAILED=0
  mkdir -p "$log_dir"
  for suite in "$@"; do
    binary=${suite%:*} shards=1
    [ "$binary" = "$suite" ] || shards=${suite##*:}
    name=$(basename "$binary")
    pids=() logs=()
    for ((shard = 0; shard < shards; shard++)); do
      logs+=("$log_dir/$name.$shard.log")
      in_root "$root" "$source" "$cache" /usr/bin/env GTEST_TOTAL_SHARDS="$shards" GTEST_SHARD_INDEX="$shard" \
        ${PLATFORM_RUNNER:-} "$binary" --gtest_brief=1 >"${logs[-1]}" 2>&1 &
      pids+=($!)
    done
    for shard in "${!pids[@]}"; do wait "${pids[$shard]}" || status=1; done
    SUITE_PASSED=0 SUITE_FAILED=0 finished=yes
    for shard in "${!logs[@]}"; do count_suite_log "${logs[$shard]}" || finished=""; done
    if [ -z "$finished" ]; then
      status=1
      echo "platform: $name did not finish; the end of its log:" >&2
      tail -q -n 20 "${logs[@]}" >&2
    fi
    PLATFORM_PASSED=$((PLATFORM_PASSED + SUITE_PASSED))
    PLATFORM_FAILED=$((PLATFORM_FAILED + SUITE_FAILED))
    echo "platform:   $name: $SUITE_PASSED passed, $SUITE_FAILED failed"
    [ "$SUITE_FAILED" -eq 0 ] || grep -h '^\[  FAILED  \] [A-Z]' "${logs[@]}" | sed 's/^/platform:     /' >&2
  done
  return $status
}

# count_suite_log LOG: adds the counts of one gtest --gtest_brief=1 log to
# SUITE_PASSED and SUITE_FAILED; fails when the run printed no summary.
count_suite_log() {
  local passed ran skipped
  passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$1" | tail -1)
  # --gtest_brief prints no count of failures: they are what ran and neither passed nor was skipped.
  ran=$(sed -n 's/^\[==========\] \([0-9]*\) tests\{0,1\} from .* ran\..*/\1/p' "$1" | tail -1)
  skipped=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$1" | tail -1)
  [ -n "$passed" ] || return 1
  SUITE_PASSED=$((SUITE_PASSED + passed))
  if [ -n "$ran" ] && [ "$ran" -gt $((passed + ${skipped:-0})) ]; then
    SUITE_FAILED=$((SUITE_FAILED + ran - passed - ${skipped:-0}))
  fi
}

# step NAME: prints how long the step before took (the first: since the script
# started), in wall-clock seconds and in CPU seconds of everything it ran (user +
# system of the waited-for children: compilers, apt, tests), which stays
# comparable on a loaded machine. Totals accumulate in PLATFORM_WALL/PLATFORM_CPU.
PLATFORM_WALL=0 PLATFORM_CPU=0
platform_step_start=$(date +%s) platform_step_cpu=0
step() {
  local now cpu times_file
  now=$(date +%s)
  times_file=$(mktemp)
  times >"$times_file"
  cpu=$(tail -n 1 "$times_file" | awk '{split($1, u, "m"); split($2, s, "m"); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2]}')
  rm -f "$times_file"
  echo "platform: $1 in $((now - platform_step_start)) s (CPU $((cpu - platform_step_cpu)) s)"
  PLATFORM_WALL=$((PLATFORM_WALL + now - platform_step_start)) PLATFORM_CPU=$((PLATFORM_CPU + cpu - platform_step_cpu))
  platform_step_start=$now platform_step_cpu=$cpu
}
