// SPDX-License-Identifier: MIT
// malloc_trim(0) once requests stop, when the heap holds enough free pages.
#include "heap_trimmer.hpp"

#include <malloc.h>
#include <unistd.h>

#include <fstream>

#include "mcpud/core/log.hpp"

namespace mcpud::app {

namespace {

// Free bytes in the heap's bins: what malloc_trim(0) can give back a page at a
// time. The top chunk (keepcost) is left out: glibc returns it on its own.
std::size_t free_below_top() {
  const auto info = mallinfo2();
  return info.fordblks > info.keepcost ? info.fordblks - info.keepcost : 0;
}

// The process's resident memory in KiB, from /proc/self/statm.
long resident_kib() {
  std::ifstream statm("/proc/self/statm");
  long size = 0;
  long resident = 0;
  statm >> size >> resident;
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

}  // namespace

void HeapTrimmer::note_activity() {
  if (stopped_) return;
  if (armed_) {
    busy_ = true;
    return;
  }
  arm();
}

void HeapTrimmer::arm() {
  armed_ = true;
  busy_ = false;  // the activity that armed the timer starts the quiet period
  timer_.expires_after(quiet_);
  timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) on_quiet_check();
  });
}

void HeapTrimmer::on_quiet_check() {
  armed_ = false;
  if (busy_) return arm();  // still busy: look again one period later
  const auto free_bytes = free_below_top();
  if (free_bytes < kWorthTrimming) return;
  const auto before = resident_kib();
  malloc_trim(0);
  log::debug("memory", "requests stopped: gave back the heap's free pages (", free_bytes / 1024, " KiB free), RSS ",
             before, " -> ", resident_kib(), " KiB");
}

void HeapTrimmer::stop() {
  stopped_ = true;
  timer_.cancel();
}

}  // namespace mcpud::app
