# SPDX-License-Identifier: MIT
# Configures a project whose transports layer declares a use of pins, which the
# rule forbids: configuring must fail and say so.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/src)
file(WRITE ${WORK}/src/empty.cpp "")
file(WRITE ${WORK}/src/CMakeLists.txt "
cmake_minimum_required(VERSION 3.25)
project(forbidden LANGUAGES CXX)
set(MCPUD_PCH OFF)
include(${LAYERS})
add_library(mcpud_pins INTERFACE)
add_library(mcpud::pins ALIAS mcpud_pins)
mcpud_layer(transports SOURCES empty.cpp USES pins)
")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK}/src -B ${WORK}/build RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(status EQUAL 0)
  message(FATAL_ERROR "a layer that uses what the rule forbids was configured")
endif()
if(NOT err MATCHES "layer transports may not depend on pins")
  message(FATAL_ERROR "configuring failed, but not for the layer rule:\n${err}")
endif()
message(STATUS "refused as it should be: layer transports may not depend on pins")
