// The writers of a DDR model's statistics (models/ddr/ddr_stats.h): the text tables of the
// end of a run (totals, initiators, controllers, data-bus use, energy, banks) and the JSON
// of `ddr.json` and `socsim ddr-trace --json`. They read DdrStats' plain figures only.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "models/ddr/ddr_stats.h"

namespace socsim {

/// Human-readable tables: totals, initiators, controllers, energy; banks that saw traffic
/// when `banks`.
void print_ddr_stats(std::ostream& out, const DdrStats& stats, bool banks = true);

/// Every figure as JSON (docs/ddr.md, "Statistics").
nlohmann::json ddr_stats_json(const DdrStats& stats);

}  // namespace socsim
