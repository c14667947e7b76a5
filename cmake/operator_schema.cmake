# The operator schema (scripts/socsim_schema/, docs/abi.md): one declaration of every
# operator and binary layout, from which the build generates what C++ needs. The package
# needs only the Python standard library (tests/cli: schema_generator_stdlib_only).
#
# At configure time the generator writes the CMake lists (operator names, kernel files, NPU
# layer sources; a schema change reconfigures); at build time it writes the headers into
# ${CMAKE_BINARY_DIR}/generated/firmware/abi/generated/ (rewritten only when they change), and
# the typed kernel signatures into .../generated/firmware/kernels/generated/signatures.h.
# Targets link `socsim_schema` to get them: #include "firmware/abi/generated/operators.h".
# Included by the host build and by the firmware project, each generating its own copy.
get_filename_component(SOCSIM_SCHEMA_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(SOCSIM_SCHEMA_PYTHON /usr/bin/python3 CACHE FILEPATH
    "Python that runs the operator schema's generator (the standard library suffices)")
set(SOCSIM_SCHEMA_GENERATED "${CMAKE_BINARY_DIR}/generated")
set(socsim_schema_lists "${SOCSIM_SCHEMA_GENERATED}/operator_schema.cmake")

execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${SOCSIM_SCHEMA_ROOT}/scripts"
          PYTHONDONTWRITEBYTECODE=1
          "${SOCSIM_SCHEMA_PYTHON}" -m socsim_schema.generate --cmake "${socsim_schema_lists}"
  RESULT_VARIABLE socsim_schema_result
  ERROR_VARIABLE socsim_schema_error)
if(NOT socsim_schema_result EQUAL 0)
  message(FATAL_ERROR "operator schema (scripts/socsim_schema/): ${socsim_schema_error}")
endif()
include("${socsim_schema_lists}")
set_property(DIRECTORY "${CMAKE_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${SOCSIM_SCHEMA_SOURCES})

if(NOT TARGET socsim_schema)
  set(socsim_schema_dir "${SOCSIM_SCHEMA_GENERATED}/firmware/abi/generated")
  set(socsim_schema_headers "${socsim_schema_dir}/operators.h"
      "${socsim_schema_dir}/program_layout.h" "${socsim_schema_dir}/npu_descriptor.h"
      "${SOCSIM_SCHEMA_GENERATED}/firmware/kernels/generated/signatures.h")
  add_custom_command(
    OUTPUT "${socsim_schema_dir}/schema.stamp"
    BYPRODUCTS ${socsim_schema_headers}
    COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${SOCSIM_SCHEMA_ROOT}/scripts"
            PYTHONDONTWRITEBYTECODE=1
            "${SOCSIM_SCHEMA_PYTHON}" -m socsim_schema.generate --out "${SOCSIM_SCHEMA_GENERATED}"
    COMMAND "${CMAKE_COMMAND}" -E touch "${socsim_schema_dir}/schema.stamp"
    DEPENDS ${SOCSIM_SCHEMA_SOURCES}
    COMMENT "Generating the operator schema's C++ headers"
    VERBATIM)
  add_custom_target(socsim_schema_headers DEPENDS "${socsim_schema_dir}/schema.stamp")
  add_library(socsim_schema INTERFACE)
  target_include_directories(socsim_schema INTERFACE "${SOCSIM_SCHEMA_GENERATED}")
  add_dependencies(socsim_schema socsim_schema_headers)
endif()
