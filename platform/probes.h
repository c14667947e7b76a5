// `socsim run`'s probes: options, and their set-up from the firmware's symbols and the YAML
// (docs/probes.md). Their tables and files are written by the report module
// (platform/report/probe_report.h).
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

struct ProbeOptions {
  std::vector<std::string> specs;  ///< --probe name=spec
  std::vector<std::string> files;  ///< --probes FILE
  bool profile = false;            ///< --profile
  size_t profile_top = 25;         ///< --profile-top N
  bool disabled = false;           ///< --no-probes
  std::string symbols_elf;         ///< --symbols ELF (for a hex image)
};

/// Adds --probe, --probes, --profile, --profile-top, --symbols and --no-probes to `opts`.
void add_probe_options(boost::program_options::options_description& opts, ProbeOptions& options);
/// Reads the options add_probe_options() leaves as text (--profile-top). Throws ConfigError.
void parse_probe_options(const boost::program_options::variables_map& vm, ProbeOptions& options);

class ProbeSession {
 public:
  /// Resolves the built-in regions, the SoC YAML's `probes:` section, --probes files and
  /// --probe specs against `image`'s symbols, and adds itself to the observers of the SoC
  /// CPU's retire trace. Throws ConfigError naming the spec that is wrong.
  ProbeSession(const ProbeOptions& options, const FirmwareImage& image, Soc& soc);

  const ProbeOptions& options() const { return options_; }
  const ProbeRunInfo& info() const { return info_; }
  /// The retire-trace probes; null with --no-probes or for a core without a retire trace.
  ProbeEngine* engine() { return engine_.get(); }
  const ProbeEngine* engine() const { return engine_.get(); }
  /// The mark probes measured from the probe register's stores, for a core without a
  /// retire trace (null otherwise).
  const StoreMarks* store_marks() const { return store_marks_.get(); }
  /// What the CPU model is, for the store-mark report.
  const std::string& cpu_description() const { return cpu_description_; }

 private:
  ProbeOptions options_;
  ProbeRunInfo info_;
  std::unique_ptr<ProbeEngine> engine_;
  std::unique_ptr<StoreMarks> store_marks_;  ///< for a core without a retire trace
  std::string cpu_description_;
};

}  // namespace socsim
