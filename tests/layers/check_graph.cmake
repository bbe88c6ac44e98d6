# SPDX-License-Identifier: MIT
# Writes the target graph (cmake --graphviz) and checks each edge between two
# layers against daemon/layers.cmake; the rule lists layers in an order where
# each uses only earlier ones, so a graph that follows it has no cycle.
cmake_policy(VERSION 3.25)
include(${SOURCE}/daemon/layers.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --graphviz=${WORK}/targets.dot ${BUILD} RESULT_VARIABLE status
                OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --graphviz failed: ${err}")
endif()
file(STRINGS ${WORK}/targets.dot lines)
set(edges 0)
foreach(line IN LISTS lines)
  # Each edge carries its target names in a comment: ... // mcpud_http -> mcpud_core
  if(line MATCHES "// mcpud_([a-z_]+) -> mcpud_([a-z_]+)$")
    set(from ${CMAKE_MATCH_1})
    set(to ${CMAKE_MATCH_2})
    if(from IN_LIST MCPUD_LAYERS AND (to IN_LIST MCPUD_LAYERS OR to STREQUAL "hal"))
      math(EXPR edges "${edges} + 1")
      if(NOT to IN_LIST MCPUD_LAYER_ALLOWS_${from})
        message(FATAL_ERROR "layer ${from} links ${to}, which daemon/layers.cmake does not allow")
      endif()
    endif()
  endif()
endforeach()
if(edges LESS 10)
  message(FATAL_ERROR "found only ${edges} edges between layers in ${WORK}/targets.dot: is the graph read right?")
endif()
message(STATUS "${edges} edges between layers, each allowed by the rule")
