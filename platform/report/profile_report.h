// The writers of a run's function profile (models/probe/function_profile.h): the table of
// the top functions on the console and, in the report directory, callgrind, folded stacks
// and speedscope files (docs/probes.md). They read the profile's plain figures only.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "models/probe/function_profile.h"
#include "models/probe/source_lines.h"

namespace socsim {

/// The top `n` functions by self cycles as a table; `exact`: the cycles are the core's.
void print_function_profile(std::ostream& out, const FunctionProfile& profile, size_t n,
                            bool exact);

/// Callgrind format (callgrind_annotate, KCachegrind): positions `instr line`, self cost per
/// instruction address with its source file and line from `lines` (fl=/fi=; "???" and line 0
/// without DWARF), calls and inclusive cost per call site, events Cycles Instructions.
void write_callgrind(std::ostream& out, const FunctionProfile& profile,
                     const std::string& command, const SourceLines* lines);

/// Folded stacks ("outer;inner;leaf cycles" per line) for flame graph tools.
void write_folded_stacks(std::ostream& out, const FunctionProfile& profile);

/// The calling-context tree as a speedscope profile (speedscope's file format, "sampled"
/// type: one sample per stack with its cycles as weight), `name` naming the profile.
void write_speedscope(std::ostream& out, const FunctionProfile& profile, const std::string& name);

}  // namespace socsim
