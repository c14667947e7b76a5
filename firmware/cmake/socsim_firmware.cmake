# The socsim firmware kit: everything a RISC-V CMake project needs to build programs for a
# socsim SoC. socsim's own firmware (firmware/CMakeLists.txt) includes it, and so does the
# package config that a build writes for projects outside the tree
# (<build>/socsim_firmware/socsim_firmware-config.cmake, found with
# `find_package(socsim_firmware)`; docs/firmware.md, "Your own firmware").
#
# Before including: configure the project with firmware/cmake/riscv32_toolchain.cmake and set
#   SOCSIM_SOURCE_DIR   the socsim source tree
#   SOCSIM_EXECUTABLE   the socsim binary (`socsim memmap` writes the memory map)
#   SOCSIM_SOC_CONFIG   the SoC YAML whose memory map programs are linked for
# Provides, in the including directory's scope:
#   - the flags socsim firmware is built with (-O2 -g, sections for --gc-sections; Release is
#     the default build type) and the C++ link rule (through the C driver: no libstdc++);
#   - the target socsim_memmap and, in SOCSIM_FW_GENERATED_DIR, memory.ld, socsim_memmap.h
#     and ddr_region.ld, regenerated from the YAML at every build;
#   - OBJECT libraries socsim::crt, socsim::hal (crt0, HAL, memcpy/memset) and socsim::runtime,
#     socsim::kernels (every CPU kernel, or SOCSIM_KERNEL_OPS), socsim::npu_delegate,
#     socsim::cpu_packed_delegate; header-only socsim::abi (firmware/abi/) and socsim::int8
#     (firmware/int8/);
#   - socsim_firmware_executable(<name> [OUTPUT_DIR <dir>] SOURCES <files...>
#                                [LIBS <targets...>])
#     which links <name>.elf with crt0, the HAL and the memory map, and writes <name>.map and
#     a disassembly <name>.lst beside it.
include_guard(DIRECTORY)

foreach(var SOCSIM_SOURCE_DIR SOCSIM_EXECUTABLE SOCSIM_SOC_CONFIG)
  if(NOT ${var})
    message(FATAL_ERROR "socsim firmware: ${var} is not set")
  endif()
endforeach()
if(NOT CMAKE_SYSTEM_PROCESSOR STREQUAL "riscv32")
  message(FATAL_ERROR
    "socsim firmware: this project must be configured for the RISC-V target: "
    "-DCMAKE_TOOLCHAIN_FILE=${SOCSIM_SOURCE_DIR}/firmware/cmake/riscv32_toolchain.cmake "
    "(a fresh build directory is needed once a compiler has been chosen)")
endif()
if(NOT EXISTS "${SOCSIM_EXECUTABLE}")
  message(FATAL_ERROR "socsim firmware: SOCSIM_EXECUTABLE '${SOCSIM_EXECUTABLE}' does not "
                      "exist: build socsim first (scripts/build.sh)")
endif()
if(NOT EXISTS "${SOCSIM_SOC_CONFIG}")
  message(FATAL_ERROR "socsim firmware: SOCSIM_SOC_CONFIG '${SOCSIM_SOC_CONFIG}' does not exist")
endif()

# ---------------------------------------------------------------------------------------------
# Flags and the link rule.
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()
if(NOT CMAKE_CXX_STANDARD)
  set(CMAKE_CXX_STANDARD 17)  # the runtime's headers are C++17
endif()
set(CMAKE_C_FLAGS_RELEASE "-O2")
set(CMAKE_CXX_FLAGS_RELEASE "-O2")
set(CMAKE_ASM_FLAGS_RELEASE "")
# C++ executables link through the C driver: g++ would ask for a libstdc++ the target lacks.
# hal/cxx_support.cpp provides what freestanding C++ code needs instead.
set(CMAKE_CXX_LINK_EXECUTABLE "<CMAKE_C_COMPILER> <FLAGS> <CMAKE_CXX_LINK_FLAGS> <LINK_FLAGS>")
string(APPEND CMAKE_CXX_LINK_EXECUTABLE " <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
add_compile_options(-g -ffunction-sections -fdata-sections)

# ---------------------------------------------------------------------------------------------
# The memory map, regenerated at every build, written only when it changes.
set(socsim_fw_dir "${SOCSIM_SOURCE_DIR}/firmware")
if(NOT SOCSIM_FW_GENERATED_DIR)
  set(SOCSIM_FW_GENERATED_DIR "${CMAKE_BINARY_DIR}/generated")
endif()
file(MAKE_DIRECTORY "${SOCSIM_FW_GENERATED_DIR}")
set(SOCSIM_FW_GENERATED
    "${SOCSIM_FW_GENERATED_DIR}/memory.ld"
    "${SOCSIM_FW_GENERATED_DIR}/socsim_memmap.h"
    "${SOCSIM_FW_GENERATED_DIR}/ddr_region.ld")
add_custom_target(socsim_memmap
  COMMAND "${CMAKE_COMMAND}" "-DSOCSIM=${SOCSIM_EXECUTABLE}" "-DCONFIG=${SOCSIM_SOC_CONFIG}"
          "-DOUT_DIR=${SOCSIM_FW_GENERATED_DIR}"
          -P "${socsim_fw_dir}/cmake/gen_memmap.cmake"
  BYPRODUCTS ${SOCSIM_FW_GENERATED}
  COMMENT "Memory map from ${SOCSIM_SOC_CONFIG}"
  VERBATIM)
set(SOCSIM_FW_LINKER_SCRIPT "${socsim_fw_dir}/link/sections.ld")

# ---------------------------------------------------------------------------------------------
# Start-up code and HAL: object libraries, so every object is offered to the linker (weak hooks,
# `_exit` and `stdout` needed by picolibc) and --gc-sections drops what is unused.
add_library(socsim_crt OBJECT "${socsim_fw_dir}/crt/crt0.S" "${socsim_fw_dir}/crt/vectors.S")
# SOCSIM_FIRMWARE_ZFINX: libgcc's single-precision routines as Zfinx instructions, objects
# linked before libgcc (crt/zfinx_float.S, docs/fpu.md).
if(SOCSIM_FIRMWARE_ZFINX)
  target_sources(socsim_crt PRIVATE "${socsim_fw_dir}/crt/zfinx_float.S")
endif()
# No debug information for crt0: the assembler writes its address ranges before the linker
# relaxes the code, so they would claim the function placed after .init (main, often) and GDB
# would show main as part of _start, without its lines.
set_source_files_properties("${socsim_fw_dir}/crt/crt0.S" TARGET_DIRECTORY socsim_crt
                            PROPERTIES COMPILE_OPTIONS "-g0")
# A C-only project (project(app C ASM)) gets the HAL without its C++ support and no runtime
# (which is C++); C++ code needs CXX among the project's languages.
get_property(socsim_fw_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
set(socsim_hal_sources boot_info.c console.c exit.c irq.c mem.c timer.c trap.c trap_entry.S)
if("CXX" IN_LIST socsim_fw_languages)
  list(APPEND socsim_hal_sources cxx_support.cpp)
endif()
list(TRANSFORM socsim_hal_sources PREPEND "${socsim_fw_dir}/hal/")
add_library(socsim_hal OBJECT ${socsim_hal_sources})
# hal/mem.c is memcpy/memmove/memset for the whole image; its loops must stay loops, and
# aligned loops keep their cycle counts independent of where the linker puts them.
set_source_files_properties("${socsim_fw_dir}/hal/mem.c" PROPERTIES
  COMPILE_DEFINITIONS SOCSIM_HAL_PROVIDES_LIBC_MEM
  COMPILE_OPTIONS
    "-fno-tree-loop-distribute-patterns;-fno-builtin;-falign-functions=4;-falign-loops=4")
foreach(lib socsim_crt socsim_hal)
  # firmware/ for "hal/...", the source tree for the ABI ("firmware/abi/...", docs/abi.md),
  # and the generated memory map.
  target_include_directories(${lib} PUBLIC "${socsim_fw_dir}" "${SOCSIM_SOURCE_DIR}"
                             "${SOCSIM_FW_GENERATED_DIR}")
  add_dependencies(${lib} socsim_memmap)
endforeach()
add_library(socsim::crt ALIAS socsim_crt)
add_library(socsim::hal ALIAS socsim_hal)

function(socsim_firmware_executable name)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "SOURCES;LIBS" ${ARGN})
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE socsim_crt socsim_hal ${ARG_LIBS})
  target_link_options(${name} PRIVATE
    "-T${SOCSIM_FW_LINKER_SCRIPT}" "-L${SOCSIM_FW_GENERATED_DIR}"
    "-Wl,-Map=${ARG_OUTPUT_DIR}/${name}.map")
  set_target_properties(${name} PROPERTIES
    SUFFIX ".elf"
    RUNTIME_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIR}"
    LINK_DEPENDS "${SOCSIM_FW_LINKER_SCRIPT};${SOCSIM_FW_GENERATED}")
  add_dependencies(${name} socsim_memmap)
  add_custom_command(TARGET ${name} POST_BUILD
    COMMAND sh -c "\"$0\" -d -S \"$1\" > \"$2\"" "${CMAKE_OBJDUMP}"
            "$<TARGET_FILE:${name}>" "${ARG_OUTPUT_DIR}/${name}.lst"
    VERBATIM)
endfunction()

# ---------------------------------------------------------------------------------------------
# The inference runtime, kernels and delegates (docs/runtime.md) on the ABI (socsim::abi, with
# the operator schema's generated headers, firmware/abi/generated/, docs/abi.md; the
# generator runs with SOCSIM_SCHEMA_PYTHON, /usr/bin/python3 by default, standard library
# only) and the int8 arithmetic (socsim::int8).
# They are C++: a C-only project has none of them. EXCLUDE_FROM_ALL: only what a program
# links is compiled.
if(NOT "CXX" IN_LIST socsim_fw_languages)
  message(STATUS "socsim firmware: C only (CXX is not among the project's languages): "
                 "crt0 and the HAL; socsim::runtime, socsim::kernels and the delegates need CXX")
  return()
endif()
include("${SOCSIM_SOURCE_DIR}/cmake/operator_schema.cmake")
add_subdirectory("${socsim_fw_dir}/abi" "${CMAKE_BINARY_DIR}/socsim/abi")
add_subdirectory("${socsim_fw_dir}/int8" "${CMAKE_BINARY_DIR}/socsim/int8")
add_subdirectory("${socsim_fw_dir}/runtime" "${CMAKE_BINARY_DIR}/socsim/runtime" EXCLUDE_FROM_ALL)
add_subdirectory("${socsim_fw_dir}/kernels" "${CMAKE_BINARY_DIR}/socsim/kernels" EXCLUDE_FROM_ALL)
add_subdirectory("${socsim_fw_dir}/delegates" "${CMAKE_BINARY_DIR}/socsim/delegates"
                 EXCLUDE_FROM_ALL)
add_library(socsim::runtime ALIAS socsim_rt_runtime)
add_library(socsim::kernels ALIAS socsim_rt_kernels)
add_library(socsim::npu_delegate ALIAS socsim_rt_npu)
add_library(socsim::cpu_packed_delegate ALIAS socsim_rt_cpu_packed)
