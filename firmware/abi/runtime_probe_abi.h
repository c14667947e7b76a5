// What socsim's probes know about the firmware runtime (firmware/runtime/): the functions
// that mark its phases, and where a kernel's or a delegate's output shape lies in its call
// arguments, so that element counts are read without running any code on the core.
// models/probe/ reads these; firmware/runtime/probe_abi.cpp checks them against the
// runtime's structures at compile time, so a layout change breaks the firmware build rather
// than the numbers.
#pragma once

#include <stdint.h>

namespace socsim::runtime_abi {

// Phases: functions, by demangled name without parameters.
constexpr const char* kProgramLoad = "socsim::runtime::Program::load";
constexpr const char* kMethodLoad = "socsim::runtime::Method::load";
constexpr const char* kDelegateInit = "socsim::runtime::Method::init_delegates";
constexpr const char* kKernelResolve = "socsim::runtime::Method::resolve_instructions";
constexpr const char* kExecute = "socsim::runtime::Method::execute";
// The same phases of an ExecuTorch program (.pte): each region counts either function.
constexpr const char* kPteProgramLoad = "socsim::runtime::PteProgram::load";
constexpr const char* kPteMethodLoad = "socsim::runtime::PteMethod::load";
constexpr const char* kPteDelegateInit = "socsim::runtime::PteMethod::init_delegates";
constexpr const char* kPteKernelResolve = "socsim::runtime::PteMethod::load_instructions";
constexpr const char* kPteExecute = "socsim::runtime::PteMethod::execute";

// A kernel's entry point is `Error fn(const KernelArgs&)` (SOCSIM_KERNEL defines it under the
// typed kernel's name); a backend's execute is
// `Error fn(const BackendExecuteContext&, void*, Tensor* const*, uint32_t, uint32_t)`.
// They are recognised by these parameter lists in their demangled names.
constexpr const char* kKernelParameters = "(socsim::runtime::KernelArgs const&)";
constexpr const char* kDelegateParameters = "(socsim::runtime::BackendExecuteContext const&";

// RV32 ilp32 layout.
constexpr uint32_t kKernelArgsOutputs = 8;  ///< KernelArgs::outputs (Tensor* const*)
constexpr uint32_t kTensorRank = 4;         ///< Tensor::rank (uint32_t)
constexpr uint32_t kTensorSizes = 8;        ///< Tensor::sizes (int32_t[kMaxRank])
constexpr uint32_t kMaxRank = 6;

// Argument registers: a0 = x10.
constexpr unsigned kA0 = 10;
constexpr unsigned kA2 = 12;
constexpr unsigned kA3 = 13;

}  // namespace socsim::runtime_abi
