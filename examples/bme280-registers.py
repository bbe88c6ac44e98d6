#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A BME280's temperature, pressure and humidity read through mcpud's I2C tools
# (docs/hardware.md, "A BME280 ... through its registers"): chip id, factory
# calibration, one forced measurement, then Bosch's compensation (datasheet
# BST-BME280-DS002, section 8.1). Usage: bme280-registers.py [HOST [PORT [BUS [ADDRESS]]]]
# (default 127.0.0.1 3000 1 0x76: `make run`'s simulated board, or a Pi's header bus).
import json
import socket
import sys
import time

host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
port = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
bus = int(sys.argv[3]) if len(sys.argv) > 3 else 1
address = int(sys.argv[4], 0) if len(sys.argv) > 4 else 0x76

connection = socket.create_connection((host, port)).makefile("rw")
next_id = 0


def call(method, **params):
    global next_id
    next_id += 1
    connection.write(json.dumps({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params}) + "\n")
    connection.flush()
    reply = json.loads(connection.readline())
    if "error" in reply:
        sys.exit(f"{method}: {reply['error']['message']}")
    return reply["result"]


def read(register, length=None):
    if length is None:
        return call("i2c_read", bus=bus, address=address, register=register)["value"]
    return call("i2c_read", bus=bus, address=address, mode="i2c_block", register=register, length=length)["data"]


def write(register, value):
    call("i2c_write", bus=bus, address=address, register=register, value=value)


chip = read(0xD0)
if chip != 0x60:
    sys.exit(f"chip id 0x{chip:02x}: not a BME280 (0x58 is a BMP280)")

# Calibration: little-endian words from 0x88, and the humidity bytes from 0xE1.
c = read(0x88, 26)
h = read(0xE1, 7)
u16 = lambda i: c[i] | c[i + 1] << 8
s16 = lambda i: u16(i) - 65536 if u16(i) > 32767 else u16(i)
s8 = lambda b: b - 256 if b > 127 else b
T1, T2, T3 = u16(0), s16(2), s16(4)
P1, P2, P3, P4, P5, P6, P7, P8, P9 = [u16(6)] + [s16(i) for i in range(8, 24, 2)]
H1, H2, H3 = c[25], s8(h[1]) << 8 | h[0], h[2]
H4, H5, H6 = s8(h[3]) * 16 | (h[4] & 0x0F), s8(h[5]) * 16 | h[4] >> 4, s8(h[6])

# One measurement, 1x oversampling of each: ctrl_hum first, then ctrl_meas (forced mode).
write(0xF2, 0x01)
write(0xF4, 0x25)
while read(0xF3) & 0x08:  # status: measuring
    time.sleep(0.002)
d = read(0xF7, 8)
adc_p = d[0] << 12 | d[1] << 4 | d[2] >> 4
adc_t = d[3] << 12 | d[4] << 4 | d[5] >> 4
adc_h = d[6] << 8 | d[7]

# Bosch's floating-point compensation.
v1 = (adc_t / 16384.0 - T1 / 1024.0) * T2
v2 = (adc_t / 131072.0 - T1 / 8192.0) ** 2 * T3
t_fine = int(v1 + v2)
celsius = (v1 + v2) / 5120.0

v1 = t_fine / 2.0 - 64000.0
v2 = v1 * v1 * P6 / 32768.0 + v1 * P5 * 2.0
v2 = v2 / 4.0 + P4 * 65536.0
v1 = (P3 * v1 * v1 / 524288.0 + P2 * v1) / 524288.0
v1 = (1.0 + v1 / 32768.0) * P1
p = (1048576.0 - adc_p - v2 / 4096.0) * 6250.0 / v1
pascal = p + (P9 * p * p / 2147483648.0 + p * P8 / 32768.0 + P7) / 16.0

hum = t_fine - 76800.0
hum = (adc_h - (H4 * 64.0 + H5 / 16384.0 * hum)) * (H2 / 65536.0 * (1.0 + H6 / 67108864.0 * hum * (1.0 + H3 / 67108864.0 * hum)))
hum = min(max(hum * (1.0 - H1 * hum / 524288.0), 0.0), 100.0)

print(f"{celsius:.2f} °C  {pascal / 100:.2f} hPa  {hum:.1f} %RH")
