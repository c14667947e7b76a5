# Runs `socsim ddr-trace` and checks its exit status, output and (optionally) JSON report.
# -D SOCSIM=... PRESET=... TRACE=... EXPECT_RC=... EXPECT_OUTPUT=regex [JSON=file]
execute_process(
  COMMAND ${SOCSIM} ddr-trace --ddr ${PRESET} ${EXTRA} ${TRACE}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL EXPECT_RC)
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT_RC}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "output does not match '${EXPECT_OUTPUT}'")
endif()
if(DEFINED JSON)
  file(READ ${JSON} json)
  string(JSON hits GET "${json}" total row_hits)
  string(JSON misses GET "${json}" total row_misses)
  string(JSON conflicts GET "${json}" total row_conflicts)
  string(JSON max GET "${json}" total latency_ns max)
  string(JSON npu GET "${json}" initiators 1 name)
  string(JSON npu_bytes GET "${json}" initiators 1 bytes_written)
  if(NOT hits EQUAL 2 OR NOT misses EQUAL 2 OR NOT conflicts EQUAL 1 OR NOT max EQUAL 43.75
     OR NOT npu STREQUAL "npu" OR NOT npu_bytes EQUAL 128)
    message(FATAL_ERROR "unexpected JSON: hits ${hits} misses ${misses} conflicts "
                        "${conflicts} max ${max} ${npu} ${npu_bytes}")
  endif()
endif()
