# For `cmake -P` scripts: sets OUT_VAR to the command given after "--" on cmake's command line
# (cmake -D... -P script.cmake -- program args...).
function(socsim_command_after_separator out_var)
  set(cmd)
  set(seen_sep FALSE)
  foreach(i RANGE ${CMAKE_ARGC})
    if(seen_sep AND DEFINED CMAKE_ARGV${i})
      list(APPEND cmd "${CMAKE_ARGV${i}}")
    elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
      set(seen_sep TRUE)
    endif()
  endforeach()
  set(${out_var} "${cmd}" PARENT_SCOPE)
endfunction()
