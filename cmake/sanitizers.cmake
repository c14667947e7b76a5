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

# SOCSIM_FUZZ: every library gets libFuzzer's coverage instrumentation; the fuzz targets
# themselves link -fsanitize=fuzzer (tests/fuzz/CMakeLists.txt).
if(SOCSIM_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "SOCSIM_FUZZ needs clang (libFuzzer): scripts/fuzz.sh configures it")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
