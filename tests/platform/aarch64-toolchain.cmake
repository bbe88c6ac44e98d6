# SPDX-License-Identifier: MIT
# Cross-compiling for arm64 on a Debian multiarch system (crossbuild-essential-arm64
# and the :arm64 -dev packages), as dpkg-buildpackage -a arm64 does; programs the
# build runs (gtest_discover_tests) run under qemu-user. Used by tests/platform/arm64_unit.sh.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(PKG_CONFIG_EXECUTABLE /usr/bin/aarch64-linux-gnu-pkg-config)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
