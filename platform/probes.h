// `socsim run`'s probes: options, set-up from the firmware's symbols and the YAML, and the
// reports at the end of a run (docs/probes.md).
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "models/probe/probe_engine.h"
#include "models/probe/store_marks.h"
#include "platform/firmware_image.h"

namespace socsim {

class Soc;
struct CpuOperatorRecord;

struct ProbeOptions {
  std::vector<std::string> specs;  ///< --probe name=spec
  std::vector<std::string> files;  ///< --probes FILE
  bool profile = false;            ///< --profile
  size_t profile_top = 25;         ///< --profile-top N
  bool disabled = false;           ///< --no-probes
};

/// Adds --probe, --probes, --profile, --profile-top and --no-probes to `opts`.
void add_probe_options(boost::program_options::options_description& opts, ProbeOptions& options);

class ProbeSession {
 public:
  /// Resolves the built-in regions, the SoC YAML's `probes:` section, --probes files and
  /// --probe specs against `image`'s symbols, and adds itself to the observers of the SoC
  /// CPU's retire trace. Throws ConfigError naming the spec that is wrong.
  ProbeSession(const ProbeOptions& options, const FirmwareImage& image, Soc& soc);

  /// Prints (when `print`) the region table and the profile and, with `report_dir`, writes
  /// probes.json,
  /// probes.csv, probes_trace.json (and callgrind.out.socsim, profile.folded).
  /// `run_cycles` is the run's cycle count, which the retire trace's total is checked against.
  /// Returns false if a file could not be written.
  bool report(std::ostream& out, bool print, const std::string& report_dir, uint64_t run_cycles);

  /// The operator calls the CPU ran during the last execution of the runtime (in order),
  /// for the NPU report's CPU rows. Empty without the runtime's symbols.
  std::vector<CpuOperatorRecord> last_execution_cpu_operators() const;

 private:
  bool report_store_marks(std::ostream& out, bool print, const std::string& report_dir,
                          uint64_t run_cycles);

  ProbeOptions options_;
  ProbeRunInfo info_;
  std::unique_ptr<ProbeEngine> engine_;
  std::unique_ptr<StoreMarks> store_marks_;  ///< for a core without a retire trace
  std::string cpu_description_;
};

}  // namespace socsim
