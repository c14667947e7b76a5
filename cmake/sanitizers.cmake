# SOCSIM_SANITIZE: build the host side (simulator, models, host runtime, tests) with the
# compiler's sanitizers, e.g. -DSOCSIM_SANITIZE=address,undefined (scripts/test.sh --sanitize
# does so in build-asan). Every report is fatal: -fno-sanitize-recover=all makes UBSan abort
# at its first finding, and scripts/test.sh --sanitize sets halt_on_error=1 for both
# (docs/hardening.md). The RISC-V firmware is a separate project and is not affected.
#
# SystemC's threads run on QuickThreads coroutine stacks. Debian's libsystemc 2.3.4 tells
# ASan of every switch (weak references to __sanitizer_start/finish_switch_fiber in
# sc_cor_qt), so reports from code on those stacks are real; ASan's fake stacks for
# use-after-return are per host thread, not per coroutine, and are turned off at run time
# (detect_stack_use_after_return=0 in scripts/test.sh --sanitize).
set(SOCSIM_SANITIZE "" CACHE STRING
  "Comma-separated sanitizers for the host build (e.g. address,undefined); empty: none")

if(SOCSIM_SANITIZE)
  string(REPLACE "," ";" socsim_sanitizers "${SOCSIM_SANITIZE}")
  foreach(s ${socsim_sanitizers})
    if(NOT s MATCHES "^(address|undefined|leak)$")
      message(FATAL_ERROR "SOCSIM_SANITIZE: unknown sanitizer '${s}' "
                          "(address, undefined or leak, comma-separated)")
    endif()
  endforeach()
  set(socsim_sanitize_flags -fsanitize=${SOCSIM_SANITIZE} -fno-sanitize-recover=all
      -fno-omit-frame-pointer)
  add_compile_options(${socsim_sanitize_flags})
  add_link_options(${socsim_sanitize_flags})
  message(STATUS "Sanitizers: ${SOCSIM_SANITIZE}")
endif()
# Instrumented code runs 3 to 6 times slower (firmware.rtl.mem_check: 14 s, 76 s under
# ASan+UBSan): tests whose timeout is near their normal run time scale it by this.
if(SOCSIM_SANITIZE)
  set(SOCSIM_TEST_TIMEOUT_SCALE 5)
else()
  set(SOCSIM_TEST_TIMEOUT_SCALE 1)
endif()

# socsim_sanitize_verilated(target): the C++ that Verilator generated for `target` is built
# without UBSan's signed-overflow check. Verilog arithmetic is modulo 2^n, and Verilator
# 5.006 computes a signed product in int64_t and int32_t (VL_MULS_QQQ and VL_MULS_III in
# verilated_funcs.h) and keeps the low bits: the multiplier's 4294967295 * 4294967295 is a
# UBSan report in generated code in firmware.rtl.isa_muldiv (docs/hardening.md). Everything
# else stays: ASan in the generated code, every UBSan check in Verilator's runtime
# (verilated.cpp) and in all of socsim's own code, the core's wrappers included.
function(socsim_sanitize_verilated target)
  if(SOCSIM_SANITIZE MATCHES "undefined")
    get_target_property(sources ${target} SOURCES)
    foreach(source ${sources})
      if(source MATCHES "^${CMAKE_CURRENT_BINARY_DIR}/")
        set_property(SOURCE ${source} APPEND PROPERTY COMPILE_OPTIONS
                     -fno-sanitize=signed-integer-overflow)
      endif()
    endforeach()
  endif()
endfunction()

# SOCSIM_FUZZ: every library gets libFuzzer's coverage instrumentation; the fuzz targets
# themselves link -fsanitize=fuzzer (tests/fuzz/CMakeLists.txt).
if(SOCSIM_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "SOCSIM_FUZZ needs clang (libFuzzer): scripts/fuzz.sh configures it")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
