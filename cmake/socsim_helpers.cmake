# socsim_add_gtest(<name> SOURCES ... LIBS ... [LABELS ...] [PREFIX <prefix>])
# A GoogleTest binary whose tests each run in their own process (SystemC elaborates once
# per process). Links socsim's own main (tests/gtest_sc_main.cpp), which provides sc_main.
# PREFIX is put before every test name (for a second build of the same tests).
function(socsim_add_gtest name)
  if(NOT SOCSIM_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "PREFIX" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} socsim_gtest_main GTest::gtest)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  set(labels unit ${ARG_LABELS})
  gtest_discover_tests(${name} TEST_PREFIX "${ARG_PREFIX}"
    PROPERTIES LABELS "${labels}" ENVIRONMENT "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1"
    DISCOVERY_TIMEOUT 60 DISCOVERY_MODE PRE_TEST)
endfunction()

# socsim_device_registrations(<library>)
# The registrations of a model library (device types, models/common/device_registry.h; CPU
# models, models/cpu/cpu_registry.h): the folder's *_registration.cpp files, as an object library whose objects every program
# linking socsim_platform links directly, so the registrations run although nothing refers
# to them by name. A new registration file needs no CMake change.
function(socsim_device_registrations lib)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_registration.cpp)
  add_library(${lib}_registrations OBJECT ${sources})
  target_link_libraries(${lib}_registrations PUBLIC ${lib})
  set_property(GLOBAL APPEND PROPERTY SOCSIM_DEVICE_REGISTRATIONS ${lib}_registrations)
endfunction()
