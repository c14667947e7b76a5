# Runs a command (arguments after --) and checks its exit status and output.
#   -DEXPECT_EXIT=N      required exit status
#   -DPASS_REGEX=RE      regular expression the combined stdout+stderr must match
#   -DFAIL_REGEX=RE      regular expression it must not match
include("${CMAKE_CURRENT_LIST_DIR}/command_after_separator.cmake")
socsim_command_after_separator(cmd)
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 600)
set(all "${out}${err}")
message("${all}")
if(NOT "${rc}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT_EXIT}")
endif()
if(PASS_REGEX AND NOT all MATCHES "${PASS_REGEX}")
  message(FATAL_ERROR "output does not match: ${PASS_REGEX}")
endif()
if(FAIL_REGEX AND all MATCHES "${FAIL_REGEX}")
  message(FATAL_ERROR "output matches the forbidden pattern: ${FAIL_REGEX}")
endif()
