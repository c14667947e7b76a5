// Fuzz target: the SoC description reader (load_soc_config) with its DDR and NPU presets and
// `--set` overrides. The input is a SoC YAML file, optionally followed by a NUL and one
// override per line (fuzz_input.h). The file is read from a folder beside links to the
// shipped presets, so `preset: ../ddr/lpddr4x-4266.yaml` resolves as it does in configs/soc/.
// A ConfigError is the reader's answer to bad input; anything else escaping is a defect.
#include <cstddef>
#include <cstdint>
#include <filesystem>

#include "models/common/config.h"
#include "platform/soc_config.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

std::string g_file;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  namespace fs = std::filesystem;
  const fs::path dir = socsim::fuzz::scratch_dir();
  fs::create_directories(dir / "soc");
  for (const char* preset : {"ddr", "npu"}) {
    fs::create_directory_symlink(fs::path(SOCSIM_SOURCE_DIR) / "configs" / preset, dir / preset);
  }
  g_file = (dir / "soc" / "fuzz.yaml").string();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<std::string> overrides =
      socsim::fuzz::write_file_with_overrides(g_file, data, size);
  try {
    (void)socsim::load_soc_config(g_file, overrides);
  } catch (const socsim::ConfigError&) {
  }
  return 0;
}
