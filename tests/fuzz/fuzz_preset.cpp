// Fuzz targets: the DDR preset reader (load_ddr_preset, with `--set` overrides) and the NPU
// preset reader (load_npu_preset), chosen by SOCSIM_FUZZ_PRESET (ddr or npu) at build time.
// The input is a preset YAML file, for the DDR optionally followed by a NUL and one override
// per line (fuzz_input.h). A preset may name another preset (`preset: FILE`): the file is
// read from a folder holding the shipped presets of its kind, so such chains resolve.
// A ConfigError is the reader's answer to bad input; anything else escaping is a defect.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "models/common/config.h"
#include "models/ddr/ddr_config.h"
#include "models/npu/npu_config.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

std::string g_file;

bool is_ddr() {
  return std::strcmp(SOCSIM_FUZZ_PRESET, "ddr") == 0;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(socsim::fuzz::scratch_dir()) / SOCSIM_FUZZ_PRESET;
  fs::create_directories(dir);
  for (const auto& entry :
       fs::directory_iterator(fs::path(SOCSIM_SOURCE_DIR) / "configs" / SOCSIM_FUZZ_PRESET)) {
    fs::create_symlink(entry.path(), dir / entry.path().filename());
  }
  g_file = (dir / "fuzz.yaml").string();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<std::string> overrides =
      socsim::fuzz::write_file_with_overrides(g_file, data, size);
  try {
    if (is_ddr()) {
      (void)socsim::load_ddr_preset(g_file, overrides);
    } else {
      (void)socsim::load_npu_preset(g_file);
    }
  } catch (const socsim::ConfigError&) {
  }
  return 0;
}
