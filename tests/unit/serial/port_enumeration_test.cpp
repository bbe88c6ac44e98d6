// SPDX-License-Identifier: MIT
// Port enumeration over a copy of the sysfs layout a USB CDC ACM adapter and
// 8250 UARTs have on a real board, built in a temporary directory.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "mcpud/serial/port_enumeration.hpp"

namespace mcpud::serial {
namespace {

namespace fs = std::filesystem;

class PortEnumeration : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/mcpud-enum-XXXXXX";
    ASSERT_NE(::mkdtemp(name), nullptr);
    root_ = name;
  }
  void TearDown() override { fs::remove_all(root_); }

  void file(const fs::path& path, const std::string& text = "") {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text << "\n";
  }
  void link(const fs::path& at, const fs::path& target) {
    fs::create_directories(at.parent_path());
    fs::create_directory_symlink(target, at);
  }
  // A tty class entry for a device directory, as sysfs has it.
  void tty(const std::string& name, const fs::path& device_dir, const std::string& type = "") {
    const auto dir = device_dir / "tty" / name;
    fs::create_directories(dir);
    link(dir / "device", fs::relative(device_dir, dir));
    if (!type.empty()) file(dir / "type", type);
    link(root_ / "sys/class/tty" / name, fs::relative(dir, root_ / "sys/class/tty"));
    file(root_ / "dev" / name);
  }

  fs::path root_;
};

TEST_F(PortEnumeration, UsbAcmAndUartsAreListedVirtualTtysAndPlaceholdersAreNot) {
  const auto sys = root_ / "sys";
  const auto usb = sys / "devices/pci0000:00/0000:00:14.0/usb1/1-2";
  file(usb / "idVendor", "0483");
  file(usb / "idProduct", "374b");
  file(usb / "manufacturer", "STMicroelectronics");
  file(usb / "product", "STM32 STLink");
  file(usb / "serial", "0668FF485550");
  const auto interface = usb / "1-2:1.2";
  file(interface / "bInterfaceNumber", "02");
  fs::create_directories(sys / "bus/usb/drivers/cdc_acm");
  link(interface / "driver", fs::relative(sys / "bus/usb/drivers/cdc_acm", interface));
  tty("ttyACM0", interface);

  const auto pnp = sys / "devices/pnp0/00:01";
  fs::create_directories(sys / "bus/pnp/drivers/serial");
  fs::create_directories(pnp);
  link(pnp / "driver", fs::relative(sys / "bus/pnp/drivers/serial", pnp));
  link(pnp / "subsystem", fs::relative(sys / "bus/pnp", pnp));
  tty("ttyS1", pnp, "4");
  tty("ttyS3", pnp, "0");  // registered by 8250 with no UART behind it
  fs::create_directories(sys / "devices/virtual/tty/tty0");
  link(sys / "class/tty/tty0", fs::relative(sys / "devices/virtual/tty/tty0", sys / "class/tty"));

  link(root_ / "dev/serial/by-id/usb-STMicroelectronics_STM32_STLink_0668FF485550-if02", "../../ttyACM0");
  link(root_ / "dev/serial/by-path/pci-0000:00:14.0-usb-0:2:1.2", "../../ttyACM0");

  const auto ports = enumerate_ports({sys.string(), (root_ / "dev").string()}, {});
  ASSERT_EQ(ports.size(), 2u);
  const auto& acm = ports[0];
  EXPECT_EQ(acm.name, (root_ / "dev/ttyACM0").string());
  EXPECT_EQ(acm.kind, "usb");
  EXPECT_EQ(acm.driver, "cdc_acm");
  ASSERT_TRUE(acm.usb);
  EXPECT_EQ(acm.usb->vendor_id, "0483");
  EXPECT_EQ(acm.usb->product_id, "374b");
  EXPECT_EQ(acm.usb->serial_number, "0668FF485550");
  EXPECT_EQ(acm.usb->interface, "02");
  EXPECT_EQ(acm.description, "STMicroelectronics STM32 STLink (0483:374b, cdc_acm)");
  ASSERT_EQ(acm.by_id.size(), 1u);
  EXPECT_NE(acm.by_id[0].find("usb-STMicroelectronics_STM32_STLink"), std::string::npos);
  ASSERT_EQ(acm.by_path.size(), 1u);

  const auto& uart = ports[1];
  EXPECT_EQ(uart.name, (root_ / "dev/ttyS1").string());
  EXPECT_EQ(uart.description, "16550A UART (serial)");
  EXPECT_EQ(uart.kind, "pnp");
  EXPECT_FALSE(uart.usb);
}

TEST_F(PortEnumeration, NoPortsIsAnEmptyListAndConfiguredGlobsAddTtysOnly) {
  fs::create_directories(root_ / "sys/class/tty");
  EXPECT_TRUE(enumerate_ports({(root_ / "sys").string(), (root_ / "dev").string()}, {}).empty());
  file(root_ / "vport-file");  // not a character device: ignored
  const auto ports =
      enumerate_ports({(root_ / "sys").string(), (root_ / "dev").string()}, {(root_ / "vport*").string(), "/dev/null"});
  ASSERT_EQ(ports.size(), 1u);  // /dev/null is a character device; being a tty is checked when opening
  EXPECT_EQ(ports[0].name, "/dev/null");
  EXPECT_EQ(ports[0].kind, "configured");
}

}  // namespace
}  // namespace mcpud::serial
