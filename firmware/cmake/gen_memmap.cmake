# Writes the firmware's view of the SoC memory map into OUT_DIR, from the SoC YAML.
#
# Run with `cmake -P` at every firmware build. Files are written only when their content
# changes, so an unchanged map relinks nothing.
#   SOCSIM   path of the socsim binary (`socsim memmap`: the YAML is the one source of truth)
#   CONFIG   the SoC YAML                        OUT_DIR where the files go
# Outputs: memory.ld (MEMORY regions, __socsim_boot_addr, __socsim_ram_end),
#          socsim_memmap.h (SOCSIM_* addresses), and ddr_region.ld, which aliases the region
#          `socsim_ddr` to `ddr` when the map has DDR and to `ram` otherwise.
cmake_minimum_required(VERSION 3.22)

set(tmp_dir "${OUT_DIR}/.memmap_tmp")
file(MAKE_DIRECTORY "${tmp_dir}")

execute_process(
  COMMAND "${SOCSIM}" memmap --config "${CONFIG}"
          --linker-script "${tmp_dir}/memory.ld" --header "${tmp_dir}/socsim_memmap.h"
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "socsim memmap failed (status ${status}) for ${CONFIG}:\n${out}${err}")
endif()

file(READ "${tmp_dir}/memory.ld" memory_ld)
if(memory_ld MATCHES "[ \t\n]ddr[ \t]*\\(")
  set(alias "ddr")
else()
  set(alias "ram")
endif()
file(WRITE "${tmp_dir}/ddr_region.ld"
  "/* Generated: where sections marked for DDR go on this SoC. */\n"
  "REGION_ALIAS(\"socsim_ddr\", ${alias});\n")

foreach(name memory.ld socsim_memmap.h ddr_region.ld)
  file(COPY_FILE "${tmp_dir}/${name}" "${OUT_DIR}/${name}" ONLY_IF_DIFFERENT)
endforeach()
