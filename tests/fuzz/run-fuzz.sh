#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the fuzz tree (clang++-16, libFuzzer, ASan+UBSan; ccache) and runs fuzz
# targets, each for SECONDS, from its checked-in seeds (tests/fuzz/corpus/TARGET)
# plus the inputs earlier runs found (BUILD_DIR/corpus/TARGET). Prints one line
# per target: executions, coverage, corpus size; exits non-zero on any crash,
# leak, timeout or sanitizer report, leaving the input in BUILD_DIR/artifacts.
#   tests/fuzz/run-fuzz.sh [--build-dir DIR] [--seconds N] [--opt LEVEL] [--build-only|--no-build] [TARGET...]
# --opt 0 builds a new tree without optimisation: half the compile, for the
# brief runs of `make test`; fuzzing of any length wants the default, 1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build_dir=$source_dir/build/fuzz
seconds=${FUZZ_SECONDS:-15}
opt=1
build=yes
run=yes
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --opt) opt=$2; shift 2 ;;
    --build-only) run=no; shift ;;
    --no-build) build=no; shift ;;
    -*) echo "run-fuzz: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cd "$here" && ls ./*_fuzz.cpp | sed -e 's|^\./||' -e 's|_fuzz\.cpp$||')
fi

if [ $build = yes ]; then
  command -v clang++-16 >/dev/null || { echo "run-fuzz: clang++-16 missing (scripts/install-deps.sh)" >&2; exit 2; }
  if [ ! -f "$build_dir/build.ninja" ]; then
    # -O1 (or --opt) and line tables only: a fuzz tree builds faster and its stacks still name lines.
    # The precompiled header saves clang a third of each compile here; nothing shares
    # this tree's compiler cache, so it compiles in unity batches too.
    CXX=clang++-16 cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=None \
      -DCMAKE_CXX_FLAGS="-O$opt -gline-tables-only" -DMCPUD_PCH=ON -DMCPUD_UNITY=ON \
      -DMCPUD_FUZZ=ON -DMCPUD_BUILD_TESTS=OFF -DMCPUD_BUILD_BENCH=OFF -DMCPUD_BUILD_FIRMWARE=OFF >/dev/null
  fi
  cmake --build "$build_dir" --target fuzz_targets
fi
[ $run = yes ] || exit 0

# A leak or an UB report is a failure like a crash; a found input is kept.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
for target in "${targets[@]}"; do
  binary=$build_dir/tests/fuzz/${target}_fuzz
  [ -x "$binary" ] || { echo "run-fuzz: $binary not built" >&2; exit 2; }
  corpus=$build_dir/corpus/$target
  artifacts=$build_dir/artifacts/$target/
  log=$build_dir/logs/$target.log
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  status=0
  "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$artifacts" "$corpus" "$here/corpus/$target" >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -1)
  echo "fuzz $target: ${execs:-?} execs (${rate:-?}/s) in ${seconds}s, $cov, exit $status"
  if [ $status -ne 0 ]; then
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -20 || true
    echo "fuzz $target: full log $log"
    failed+=("$target")
  fi
done
[ ${#failed[@]} -eq 0 ] || { echo "run-fuzz: failures in ${failed[*]}" >&2; exit 1; }
