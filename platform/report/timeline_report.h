// timeline.json (docs/debugging.md#one-timeline): the run in Chrome's trace-event format for
// Perfetto's UI. Always: the CPU's regions and marks (from the probes) and each NPU's layers,
// one track per NPU core. With --timeline: the CPU's trap and interrupt handlers, the NPU's
// DMA transfers, and each DDR's bandwidth and queue depth as counters; with
// --timeline-functions: every function call.
#pragma once

#include <cstdint>
#include <ostream>

#include "platform/debug_tools.h"
#include "platform/probes.h"

namespace socsim {

class Soc;

/// Writes the timeline of a run that took `run_cycles` CPU cycles; `recording` is null
/// without --timeline.
void write_timeline(std::ostream& out, Soc& soc, const ProbeSession& probes,
                    const TimelineRecording* recording, uint64_t run_cycles);

}  // namespace socsim
