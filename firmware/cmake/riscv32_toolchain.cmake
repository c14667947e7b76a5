# CMake toolchain file for socsim firmware: bare-metal RV32IMC (the CV32E40P's ISA) with
# Debian's gcc-riscv64-unknown-elf and picolibc.
#
# There is no rv32imc multilib in that toolchain. With ISA spec 2.2, Zicsr and Zifencei are part
# of the base ISA, so one -march serves compiling (CSR and fence.i instructions assemble) and
# linking (gcc then picks the rv32im/ilp32 picolibc, which has no compressed instructions but
# runs on an RV32IMC core).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(SOCSIM_RISCV_PREFIX riscv64-unknown-elf- CACHE STRING "Prefix of the RISC-V cross tools")
find_program(CMAKE_C_COMPILER ${SOCSIM_RISCV_PREFIX}gcc REQUIRED)
find_program(CMAKE_CXX_COMPILER ${SOCSIM_RISCV_PREFIX}g++ REQUIRED)
set(CMAKE_ASM_COMPILER ${CMAKE_C_COMPILER})
find_program(CMAKE_OBJCOPY ${SOCSIM_RISCV_PREFIX}objcopy REQUIRED)
find_program(CMAKE_OBJDUMP ${SOCSIM_RISCV_PREFIX}objdump REQUIRED)
find_program(CMAKE_SIZE ${SOCSIM_RISCV_PREFIX}size)

# SOCSIM_FIRMWARE_FPU=ON builds for a CV32E40P with its FPU (docs/fpu.md): RV32IMFC with the
# ilp32f ABI (floats in f registers, hardware float in every kernel). There is no rv32imfc
# picolibc either; gcc then links the rv32imf/ilp32f one (no compressed instructions, no A).
# Such firmware runs only on a core with F registers.
#
# SOCSIM_FIRMWARE_ZFINX=ON builds for a CV32E40P with its FPU and ZFINX=1 (float operands in the
# x registers): GCC 12 does not generate Zfinx code from C, so the firmware is the soft-float
# build (rv32imc / ilp32, whose float arguments and results are bit patterns in x registers)
# with libgcc's single-precision routines replaced by their Zfinx instructions
# (crt/zfinx_float.S). Such firmware runs only on a core with Zfinx.
set(SOCSIM_FIRMWARE_FPU OFF CACHE BOOL "Build the firmware for RV32IMFC / ilp32f (hardware float)")
set(SOCSIM_FIRMWARE_ZFINX OFF CACHE BOOL
    "Build the firmware for a core with Zfinx (soft-float ABI, libgcc's float routines as Zfinx)")
if(SOCSIM_FIRMWARE_FPU AND SOCSIM_FIRMWARE_ZFINX)
  message(FATAL_ERROR "SOCSIM_FIRMWARE_FPU and SOCSIM_FIRMWARE_ZFINX exclude each other")
endif()
if(SOCSIM_FIRMWARE_FPU)
  set(SOCSIM_RISCV_ARCH_FLAGS "-march=rv32imfc -misa-spec=2.2 -mabi=ilp32f")
else()
  set(SOCSIM_RISCV_ARCH_FLAGS "-march=rv32imc -misa-spec=2.2 -mabi=ilp32")
endif()
set(CMAKE_C_FLAGS_INIT "${SOCSIM_RISCV_ARCH_FLAGS} --specs=picolibc.specs")
set(CMAKE_CXX_FLAGS_INIT "${SOCSIM_RISCV_ARCH_FLAGS} --specs=picolibc.specs")
string(APPEND CMAKE_CXX_FLAGS_INIT " -fno-exceptions -fno-rtti -fno-threadsafe-statics")
set(CMAKE_ASM_FLAGS_INIT "${SOCSIM_RISCV_ARCH_FLAGS} --specs=picolibc.specs")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostartfiles -Wl,--gc-sections -Wl,--no-warn-rwx-segments")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
