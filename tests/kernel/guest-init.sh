#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# /init of the test guest: creates a gpio-sim chip labelled like a Raspberry Pi 4
# header (lines GPIO17, GPIO22, GPIO27), an iio_dummy ADC and a USB serial gadget on
# dummy_hcd, starts mcpud on them and runs the checks; then mcpud again on
# i2c-stub's bus, with sensor_input pins on lm75 (hwmon, bound to a stub chip)
# and iio_dummy's acceleration channel. Prints KCHECK lines and
# the marker KTEST DONE on the console. mcpud.gpio=v1|v2 on the kernel command
# line names the libgpiod API mcpud must drive the lines with.
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin:/usr/sbin
mkdir -p /proc /sys /dev /cfg /tmp /run
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t configfs none /cfg
mount -t tmpfs tmp /tmp
ip link set lo up || ifconfig lo 127.0.0.1 up

result() { echo "KCHECK $1 $2${3:+: $3}"; }
finish() {
  echo "----- mcpud log -----"
  sed 's/^/MCPUD| /' /tmp/mcpud-hw.log /tmp/mcpud.log 2>/dev/null
  echo "KTEST DONE"
  poweroff -f
}
wait_for() {  # wait_for SECONDS TEST-ARGS...: polls a condition every 50 ms
  n=$(( $1 * 20 )); shift
  while ! test "$@"; do n=$((n - 1)); [ $n -le 0 ] && return 1; usleep 50000; done
}

# gpio-sim: one bank with the header chip's label and BCM line names.
G=/cfg/gpio-sim/header
mkdir $G $G/bank0
echo 32 > $G/bank0/num_lines
echo pinctrl-bcm2711 > $G/bank0/label
for n in 17 22 27; do mkdir $G/bank0/line$n; echo GPIO$n > $G/bank0/line$n/name; done
echo 1 > $G/live || { result FAIL gpio_sim_live; finish; }
CHIP_DIR=$(ls -d /sys/devices/platform/gpio-sim.*/gpiochip* | head -n1)
[ -d "$CHIP_DIR" ] && result PASS gpio_sim_created || { result FAIL gpio_sim_created; finish; }

# iio_dummy ADC named adc0.
mkdir /cfg/iio/devices/dummy/adc0 || { result FAIL iio_dummy_created; finish; }
IIO_DIR=$(dirname "$(grep -l '^adc0$' /sys/bus/iio/devices/iio:device*/name | head -n1)")
[ -f "$IIO_DIR/in_voltage0_raw" ] && result PASS iio_dummy_created || { result FAIL iio_dummy_created; finish; }

# USB serial gadget: ttyGS0 (device side, mcpud) <-> ttyACM0 (host side, client).
U=/cfg/usb_gadget/g1
mkdir $U $U/functions/acm.usb0 $U/configs/c.1
echo 0x1d6b > $U/idVendor
echo 0x0104 > $U/idProduct
ln -s $U/functions/acm.usb0 $U/configs/c.1/
echo dummy_udc.0 > $U/UDC
wait_for 10 -c /dev/ttyACM0 && wait_for 10 -c /dev/ttyGS0 && result PASS usb_gadget_ttys || result FAIL usb_gadget_ttys "no /dev/ttyACM0 or /dev/ttyGS0"

cat > /tmp/mcpud.toml <<TOML
device = "kernel-test"
board = "raspberrypi"
listen = ["127.0.0.1:0"]
tty = ["/dev/ttyGS0"]
log_level = "debug"

[[pins]]
name = "led"
pin = 17
type = "digital_output"
safe_value = true

[[pins]]
name = "button"
pin = 27
type = "digital_input"
bias = "pull-up"
active_low = true
events = "both"

[[pins]]
name = "debounced"
pin = 22
type = "digital_input"
bias = "pull-down"
events = "both"
debounce_ms = 300

[[pins]]
name = "light"
pin = 100
type = "adc_input"
iio = { device = "adc0", channel = "voltage0" }
sampling = { interval_ms = 50, buffer_size = 20 }
TOML

# A mistake is reported at start with what exists instead.
sed 's/^pin = 27$/pin = 26/' /tmp/mcpud.toml > /tmp/bad.toml
if /usr/sbin/mcpud --config /tmp/bad.toml > /tmp/bad.log 2>&1; then
  result FAIL bad_line_refused "mcpud started with line GPIO26, which does not exist"
elif grep -q "no line named 'GPIO26' on chip gpiochip0 \[pinctrl-bcm2711\]; its lines: GPIO17, GPIO22, GPIO27" /tmp/bad.log; then
  result PASS bad_line_refused
else
  result FAIL bad_line_refused "$(cat /tmp/bad.log)"
fi

/usr/sbin/mcpud --config /tmp/mcpud.toml > /tmp/mcpud.log 2>&1 &
MCPUD=$!
port() { sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' /tmp/mcpud.log | head -n1; }
n=400; while [ -z "$(port)" ] && kill -0 $MCPUD 2>/dev/null && [ $n -gt 0 ]; do usleep 50000; n=$((n - 1)); done
PORT=$(port)
[ -n "$PORT" ] && result PASS mcpud_started || { result FAIL mcpud_started "no listening line"; finish; }

# Which libgpiod mcpud drove the lines with (its log), against what the test expects.
EXPECTED_GPIO=$(sed -n 's/.*mcpud\.gpio=\(v[12]\).*/\1/p' /proc/cmdline)
GPIO_API=$(sed -n 's/.*button: requesting .* through libgpiod \(v[12]\).*/\1/p' /tmp/mcpud.log | head -n1)
if [ -n "$GPIO_API" ] && [ "$GPIO_API" = "$EXPECTED_GPIO" ]; then
  result PASS "gpio_backend_libgpiod_$GPIO_API"
else
  result FAIL gpio_backend "mcpud drove the lines with libgpiod '$GPIO_API', the test expects '$EXPECTED_GPIO'"
fi
# The initramfs holds only the libraries mcpud and the client need: v1 is libgpiod.so.2, v2 libgpiod.so.3.
SONAME=libgpiod.so.$([ "$EXPECTED_GPIO" = v2 ] && echo 3 || echo 2)
ls /lib/*/$SONAME /usr/lib/*/$SONAME 2>/dev/null | grep -q . && result PASS "mcpud_links_$SONAME" \
  || result FAIL "mcpud_links_$SONAME" "not in the initramfs: $(ls /lib/*/libgpiod* /usr/lib/*/libgpiod* 2>/dev/null)"

# --check-config only looks the lines up, so it works while mcpud holds them.
/usr/sbin/mcpud --check-config /tmp/mcpud.toml > /dev/null 2> /tmp/check.log \
  && result PASS check_config_while_running || result FAIL check_config_while_running "$(cat /tmp/check.log)"

# The serial gadget: serve, unplug (unbind), replug (rebind), serve again.
/usr/bin/kernel-client tty /dev/ttyACM0 "$CHIP_DIR" ""
echo "" > $U/UDC
wait_for 10 ! -e /dev/ttyACM0 && result PASS gadget_unbound || result FAIL gadget_unbound "/dev/ttyACM0 still there"
echo dummy_udc.0 > $U/UDC
wait_for 10 -c /dev/ttyACM0 && result PASS gadget_rebound || result FAIL gadget_rebound "no /dev/ttyACM0"
/usr/bin/kernel-client tty /dev/ttyACM0 "$CHIP_DIR" "rebound_"

# SIGHUP releases the held lines and requests them again (checked by what follows).
kill -HUP $MCPUD
n=200; while ! grep -q "reloaded:" /tmp/mcpud.log && [ $n -gt 0 ]; do usleep 50000; n=$((n - 1)); done
grep -q "reloaded: 4 pins" /tmp/mcpud.log && result PASS sighup_reload || result FAIL sighup_reload "$(grep -i 'reload\|error' /tmp/mcpud.log)"

# A client that drove led away from its safe value disconnects: the line goes back (docs/safety.md).
/usr/bin/kernel-client release "$PORT" "$CHIP_DIR"

# GPIO, edges, ADC over TCP; ends with SIGTERM and the safe-value check.
/usr/bin/kernel-client hw $MCPUD "$PORT" "$CHIP_DIR" "$IIO_DIR" /cfg/iio/devices/dummy/adc0 "$EXPECTED_GPIO"

# I2C: i2c-stub's chips at 0x20, 0x48 and 0x50 on a real /dev/i2c-N, with SMBus
# block transfers on (functionality); lm75 owns 0x48 (bound through new_device
# unless its detection, which runs on i2c-stub's hwmon-class adapter, took it).
insmod /lib/modules/i2c-stub.ko chip_addr=0x20,0x48,0x50 functionality=0x0f7f0000 \
  || { result FAIL i2c_stub_loaded "insmod i2c-stub failed"; finish; }
I2C_BUS=$(grep -l "SMBus stub driver" /sys/bus/i2c/devices/i2c-*/name | head -n1 | sed 's,.*/i2c-\([0-9]*\)/name,\1,')
[ -n "$I2C_BUS" ] && [ -c /dev/i2c-$I2C_BUS ] && result PASS i2c_stub_bus || { result FAIL i2c_stub_bus "no i2c-stub adapter or /dev/i2c-N"; finish; }
[ -e /sys/bus/i2c/devices/$I2C_BUS-0048 ] || echo lm75 0x48 > /sys/bus/i2c/devices/i2c-$I2C_BUS/new_device
wait_for 5 -e /sys/bus/i2c/devices/$I2C_BUS-0048/driver && result PASS lm75_bound || result FAIL lm75_bound "no driver at $I2C_BUS-0048"
HWMON_DIR=$(dirname "$(grep -l '^lm75$' /sys/class/hwmon/hwmon*/name | head -n1)")
[ -f "$HWMON_DIR/temp1_input" ] && result PASS lm75_hwmon || result FAIL lm75_hwmon "no hwmon chip named lm75"
# A second iio_dummy (the first was removed under mcpud) for its acceleration channel.
mkdir /cfg/iio/devices/dummy/imu0 || result FAIL iio_dummy_imu0_created
IMU_DIR=$(dirname "$(grep -l '^imu0$' /sys/bus/iio/devices/iio:device*/name | head -n1)")
[ -f "$IMU_DIR/in_accel_x_raw" ] && result PASS iio_dummy_accel_channel || result FAIL iio_dummy_accel_channel "no in_accel_x_raw"
cat > /tmp/i2c.toml <<TOML
device = "kernel-i2c"
board = "linux"
listen = ["127.0.0.1:0"]
log_level = "debug"

[[pins]]
name = "tilt"
pin = 110
type = "sensor_input"
iio = { device = "imu0", channel = "accel_x" }

[[pins]]
name = "board_temp"
pin = 111
type = "sensor_input"
hwmon = { device = "lm75", input = "temp1" }

[[i2c.buses]]
bus = $I2C_BUS
devices = [{address = 0x20, write = true}, {address = 0x50}, {address = 0x48, write = true}]
TOML
mv /tmp/mcpud.log /tmp/mcpud-hw.log
/usr/sbin/mcpud --config /tmp/i2c.toml > /tmp/mcpud.log 2>&1 &
MCPUD=$!
n=400; while [ -z "$(port)" ] && kill -0 $MCPUD 2>/dev/null && [ $n -gt 0 ]; do usleep 50000; n=$((n - 1)); done
PORT=$(port)
[ -n "$PORT" ] && result PASS mcpud_i2c_started || { result FAIL mcpud_i2c_started "no listening line"; finish; }
/usr/bin/kernel-client i2c "$PORT" "$I2C_BUS"
/usr/bin/kernel-client sensors "$PORT" "$I2C_BUS" "$IMU_DIR" "$HWMON_DIR"
kill $MCPUD
finish
