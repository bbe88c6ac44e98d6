// SPDX-License-Identifier: MIT
// Compile-time limits of the MCP/U firmware library: every table has a fixed size set here.
#pragma once

// Override any of these with -D or by defining them before including McpU.h.
#if defined(__AVR__)
#ifndef MCPU_MAX_PINS
#define MCPU_MAX_PINS 8
#endif
#ifndef MCPU_MAX_TOOLS
#define MCPU_MAX_TOOLS 6
#endif
#ifndef MCPU_LINE_MAX
#define MCPU_LINE_MAX 200  // request line, bytes (longer lines are refused whole)
#endif
#ifndef MCPU_SAMPLE_POOL
#define MCPU_SAMPLE_POOL 40  // ring-buffer slots shared by all buffered pins
#endif
#ifndef MCPU_EVENT_POOL
#define MCPU_EVENT_POOL 8  // event-queue slots shared by all pins with thresholds or edges
#endif
#ifndef MCPU_EVENTS_PER_PIN
#define MCPU_EVENTS_PER_PIN 4
#endif
#ifndef MCPU_ADC_REF_MV
#define MCPU_ADC_REF_MV 5000
#endif
#ifndef MCPU_ADC_MAX
#define MCPU_ADC_MAX 1023
#endif
#ifndef MCPU_MEMORY_PROFILE
#define MCPU_MEMORY_PROFILE "low"
#endif
#else
#ifndef MCPU_MAX_PINS
#define MCPU_MAX_PINS 16
#endif
#ifndef MCPU_MAX_TOOLS
#define MCPU_MAX_TOOLS 24
#endif
#ifndef MCPU_LINE_MAX
#define MCPU_LINE_MAX 512
#endif
#ifndef MCPU_SAMPLE_POOL
#define MCPU_SAMPLE_POOL 1200
#endif
#ifndef MCPU_EVENT_POOL
#define MCPU_EVENT_POOL 64
#endif
#ifndef MCPU_EVENTS_PER_PIN
#define MCPU_EVENTS_PER_PIN 16
#endif
#ifndef MCPU_ADC_REF_MV
#define MCPU_ADC_REF_MV 3300
#endif
#ifndef MCPU_ADC_MAX
#define MCPU_ADC_MAX 1023
#endif
#ifndef MCPU_MEMORY_PROFILE
#define MCPU_MEMORY_PROFILE "rich"
#endif
#endif

// MCPU_NO_SCHEMAS=1 leaves inputSchema out of list_tools (as the reference firmware
// does on AVR) and compiles the schema text out of flash; hosts then use their
// fallback schemas. Arguments are still checked against the declared parameters.
#ifndef MCPU_NO_SCHEMAS
#define MCPU_NO_SCHEMAS 0
#endif

#define MCPU_VERSION "1.0.0"
