# Runs the same SoC simulation twice (arguments after --, plus --report DIR) and checks that
# the cycle count, the DDR statistics (ddr.json) and the NPU's per-layer report are the same.
#   -DOUT=dir   where the two report directories go
include("${CMAKE_CURRENT_LIST_DIR}/../command_after_separator.cmake")
socsim_command_after_separator(cmd)
foreach(run a b)
  file(REMOVE_RECURSE "${OUT}/${run}")
  execute_process(COMMAND ${cmd} --report "${OUT}/${run}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${run}: exit status ${rc}\n${out}${err}")
  endif()
  file(READ "${OUT}/${run}/summary.json" summary)
  string(JSON cycles_${run} GET "${summary}" cycles)
endforeach()
if(NOT cycles_a EQUAL cycles_b)
  message(FATAL_ERROR "cycles differ: ${cycles_a} vs ${cycles_b}")
endif()
foreach(report ddr.json npu_layers.json)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${OUT}/a/${report}"
                  "${OUT}/b/${report}" RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "${report} differs between two runs of the same simulation")
  endif()
endforeach()
message("deterministic: ${cycles_a} cycles, ddr.json and npu_layers.json identical")
