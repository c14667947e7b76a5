# Runs a command (arguments after --) and checks its exit status and output.
#   -DEXPECT_EXIT=N      required exit status
#   -DPASS_REGEX=RE      regular expression the combined stdout+stderr must match
#   -DFAIL_REGEX=RE      regular expression it must not match
set(cmd)
set(seen_sep FALSE)
foreach(i RANGE ${CMAKE_ARGC})
  if(seen_sep AND DEFINED CMAKE_ARGV${i})
    list(APPEND cmd "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(seen_sep TRUE)
  endif()
endforeach()
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
