// SPDX-License-Identifier: MIT
#include "ctl_run.hpp"

#ifndef MCPUCTL_BINARY
#error "MCPUCTL_BINARY must name the mcpuctl executable"
#endif

namespace mcpud::it {

std::vector<std::string> as_nobody(const std::string& program, std::vector<std::string> args) {
  std::vector<std::string> out{"--reuid=nobody", "--regid=nogroup", "--clear-groups", program};
  out.insert(out.end(), args.begin(), args.end());
  return out;
}

CtlOutput run_program(const std::string& program, const std::vector<std::string>& args, Deadline deadline) {
  DaemonProcess process;
  CtlOutput output;
  if (!process.start_program(program, args)) return output;
  output.exit_code = process.wait_exit(deadline);
  output.out = process.stdout_text();
  output.err = process.log();
  return output;
}

CtlOutput run_ctl(const std::vector<std::string>& args, Deadline deadline) {
  return run_program(MCPUCTL_BINARY, args, deadline);
}

}  // namespace mcpud::it
