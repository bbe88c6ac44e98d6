# SPDX-License-Identifier: MIT
# The layer rule of mcpud, in one place. Each layer is one library target with
# include/mcpud/<layer>/ as its public face and its folder as private detail; a
# layer may link only the layers listed for it here, and only layers defined
# before it, so the graph is acyclic by construction. Include paths follow the
# links: a header of a layer not linked cannot be found, so a wrong include does
# not compile (tests/layers proves it).
#
#   hal (hal/)         board access, no JSON-RPC
#   core               rpc engine and dispatcher, tool registry, schema, sampler, events, log
#   io                 OS plumbing shared by doors and rooms: fds, serial ports, byte queues, addresses
#   mqtt               the MQTT client on the event loop
#   back rooms         pins, serial, buses, bridge: they register tools
#   front doors        dialects, transports, http, dbus, uplinks: they call tools
#   app                the only place that sees everything: configuration and wiring
set(MCPUD_LAYERS core io mqtt pins serial buses bridge dialects transports http dbus uplinks app)
set(MCPUD_LAYER_ALLOWS_core "")
set(MCPUD_LAYER_ALLOWS_io core)
set(MCPUD_LAYER_ALLOWS_mqtt core io)
set(MCPUD_LAYER_ALLOWS_pins core io hal)
set(MCPUD_LAYER_ALLOWS_serial core io)
set(MCPUD_LAYER_ALLOWS_buses core hal)
set(MCPUD_LAYER_ALLOWS_bridge core io pins)
set(MCPUD_LAYER_ALLOWS_dialects core)
set(MCPUD_LAYER_ALLOWS_transports core io)
set(MCPUD_LAYER_ALLOWS_http core io)
set(MCPUD_LAYER_ALLOWS_dbus core)
set(MCPUD_LAYER_ALLOWS_uplinks core io mqtt)
set(MCPUD_LAYER_ALLOWS_app ${MCPUD_LAYERS} hal)
list(REMOVE_ITEM MCPUD_LAYER_ALLOWS_app app)

# Off by default: a precompiled header is rebuilt byte for byte differently in
# every tree, so every compile that uses it misses the compiler cache in the
# package's build (tests/package), which then compiles the daemon anew; without
# it the package's build finds all of them (docs/packaging.md). It saves about a
# tenth of a compile; turn it on for a tree of your own that is rebuilt often.
option(MCPUD_PCH "Precompile the heavy headers of each layer" OFF)

# One precompiled header shared by all layers: with debug information it is over
# 100 MB, so one per layer filled gigabytes. It is made in a target of its own
# that defines no macros: a macro defined where a header was precompiled but not
# where it is used would make GCC skip it.
if(MCPUD_PCH AND NOT CMAKE_SCRIPT_MODE_FILE)  # the layer check includes this file as a script
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/pch_anchor.cpp "// The target that owns mcpud's precompiled header.\n")
  add_library(mcpud_pch OBJECT ${CMAKE_CURRENT_BINARY_DIR}/pch_anchor.cpp)
  target_precompile_headers(mcpud_pch PRIVATE <nlohmann/json.hpp> <string> <vector> <memory> <functional>)
endif()

# mcpud_layer(<name> SOURCES <files> [USES <layers>] [EXPOSES <layers>] [LIBS <targets>] [PUBLIC_LIBS <targets>])
# USES: layers this one's sources include; EXPOSES: layers its public headers
# include (their users need them too). Defines mcpud::<name>, and
# mcpud::<name>_internals (its folder on the include path) for its unit tests.
function(mcpud_layer name)
  cmake_parse_arguments(L "" "" "SOURCES;USES;EXPOSES;LIBS;PUBLIC_LIBS" ${ARGN})
  if(NOT name IN_LIST MCPUD_LAYERS)
    message(FATAL_ERROR "mcpud: ${name} is not a layer in daemon/layers.cmake")
  endif()
  foreach(dep IN LISTS L_USES L_EXPOSES)
    if(NOT dep IN_LIST MCPUD_LAYER_ALLOWS_${name})
      message(FATAL_ERROR "mcpud: layer ${name} may not depend on ${dep} (daemon/layers.cmake)")
    endif()
    if(NOT TARGET mcpud::${dep})
      message(FATAL_ERROR "mcpud: layer ${name} uses ${dep}, which is not defined before it")
    endif()
  endforeach()
  add_library(mcpud_${name} STATIC ${L_SOURCES})
  add_library(mcpud::${name} ALIAS mcpud_${name})
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/include)
    target_include_directories(mcpud_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  endif()
  target_include_directories(mcpud_${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  list(TRANSFORM L_USES PREPEND mcpud:: OUTPUT_VARIABLE uses)
  list(TRANSFORM L_EXPOSES PREPEND mcpud:: OUTPUT_VARIABLE exposes)
  target_link_libraries(mcpud_${name} PUBLIC ${exposes} ${L_PUBLIC_LIBS} PRIVATE ${uses} ${L_LIBS})
  if(MCPUD_PCH)
    target_precompile_headers(mcpud_${name} REUSE_FROM mcpud_pch)
  endif()
  add_library(mcpud_${name}_internals INTERFACE)
  target_include_directories(mcpud_${name}_internals INTERFACE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(mcpud_${name}_internals INTERFACE mcpud_${name} ${uses} ${L_LIBS})
  add_library(mcpud::${name}_internals ALIAS mcpud_${name}_internals)
endfunction()
