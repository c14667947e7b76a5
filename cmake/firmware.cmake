# The RISC-V firmware, built as a separate CMake project with its own toolchain file.
#
# firmware/ is configured with firmware/cmake/riscv32_toolchain.cmake into
# ${CMAKE_BINARY_DIR}/firmware and rebuilt at every build (its own Ninja/Make decides what is
# out of date). Outputs: firmware/apps/<app>.elf, firmware/tests/isa_<class>.elf,
# firmware/corev/corev_hello.{elf,hex}. The linker script and address header are generated from
# SOCSIM_FIRMWARE_SOC_CONFIG by the socsim binary (`socsim memmap`), hence DEPENDS socsim.
include(ExternalProject)

set(SOCSIM_FIRMWARE_SOC_CONFIG "${CMAKE_SOURCE_DIR}/configs/soc/default.yaml"
    CACHE FILEPATH "SoC YAML whose memory map the firmware is linked for")
set(SOCSIM_FIRMWARE_JOBS 2 CACHE STRING "Parallel jobs of the firmware build")

ExternalProject_Add(firmware
  SOURCE_DIR "${CMAKE_SOURCE_DIR}/firmware"
  BINARY_DIR "${CMAKE_BINARY_DIR}/firmware"
  CMAKE_ARGS
    "-DCMAKE_TOOLCHAIN_FILE=${CMAKE_SOURCE_DIR}/firmware/cmake/riscv32_toolchain.cmake"
    "-DSOCSIM_SOC_CONFIG=${SOCSIM_FIRMWARE_SOC_CONFIG}"
    "-DSOCSIM_EXECUTABLE=${CMAKE_BINARY_DIR}/bin/socsim"
  BUILD_COMMAND "${CMAKE_COMMAND}" --build <BINARY_DIR> --parallel ${SOCSIM_FIRMWARE_JOBS}
  BUILD_ALWAYS ON
  INSTALL_COMMAND ""
  DEPENDS socsim
  USES_TERMINAL_BUILD ON)

# The same kit for firmware projects outside the tree: find_package(socsim_firmware) with
# socsim_firmware_DIR=<build>/socsim_firmware (docs/firmware.md, "Your own firmware").
set(SOCSIM_FIRMWARE_PACKAGE_DIR "${CMAKE_BINARY_DIR}/socsim_firmware")
set(SOCSIM_FIRMWARE_PACKAGE_EXECUTABLE "${CMAKE_BINARY_DIR}/bin/socsim")
configure_file("${CMAKE_SOURCE_DIR}/cmake/socsim_firmware-config.cmake.in"
               "${SOCSIM_FIRMWARE_PACKAGE_DIR}/socsim_firmware-config.cmake" @ONLY)
include(CMakePackageConfigHelpers)
write_basic_package_version_file(
  "${SOCSIM_FIRMWARE_PACKAGE_DIR}/socsim_firmware-config-version.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
