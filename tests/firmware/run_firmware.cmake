# Runs one firmware image on socsim and checks the exit status and the output.
#   cmake -DSOCSIM=<socsim> -DCONFIG=<yaml> -DFIRMWARE=<elf|hex> -DEXPECT_STATUS=<n>
#         -DEXPECT_REGEX=<regex> [-DRUN_ARGS=<a|b|...>] -P run_firmware.cmake
# RUN_ARGS are extra `socsim run` arguments separated by '|'. Both checks are made here because
# CTest ignores the exit status of a test that has a PASS_REGULAR_EXPRESSION.
cmake_minimum_required(VERSION 3.22)

string(REPLACE "|" ";" run_args "${RUN_ARGS}")
execute_process(
  COMMAND "${SOCSIM}" run --config "${CONFIG}" --firmware "${FIRMWARE}" ${run_args}
  RESULT_VARIABLE status
  OUTPUT_VARIABLE out ERROR_VARIABLE err
  ECHO_OUTPUT_VARIABLE ECHO_ERROR_VARIABLE)

if(NOT "${status}" STREQUAL "${EXPECT_STATUS}")
  message(FATAL_ERROR "${FIRMWARE}: exit status ${status}, expected ${EXPECT_STATUS}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "${FIRMWARE}: output does not match '${EXPECT_REGEX}'")
endif()
