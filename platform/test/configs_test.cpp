// Every YAML file under configs/ loads with the reader of its folder, and every SoC
// description, and the default SoC with each DDR and NPU preset in turn, builds a SoC that
// elaborates. Files are found when the test runs: a new preset needs no test of its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <systemc>

#include "models/common/test/config_test_util.h"
#include "models/ddr/ddr_config.h"
#include "models/npu/npu_config.h"
#include "platform/soc.h"
#include "platform/soc_config.h"

namespace socsim {
namespace {

namespace fs = std::filesystem;

const fs::path kConfigs = fs::path(SOCSIM_SOURCE_DIR) / "configs";
const std::string kDefaultSoc = (kConfigs / "soc" / "default.yaml").string();

std::vector<fs::path> yaml_files(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Builds the SoC of `file` with `overrides` and runs SystemC's elaboration and the first
// delta cycles, in a child process (SystemC elaborates once per process). Exits 0 on success.
void build_in_child(const std::string& file, const std::vector<std::string>& overrides) {
  EXPECT_EXIT(
      {
        const SocConfig config = load_soc_config(file, overrides);
        std::ostringstream console;
        Soc soc(config, "", console);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
        std::exit(soc.router().regions().size() == config.regions.size() ? 0 : 1);
      },
      testing::ExitedWithCode(0), "")
      << file << (overrides.empty() ? "" : " --set " + overrides.front());
}

TEST(Configs, EveryYamlLoadsWithTheReaderOfItsFolder) {
  const std::vector<fs::path> files = yaml_files(kConfigs);
  ASSERT_FALSE(files.empty());
  for (const fs::path& file : files) {
    const std::string folder = file.parent_path().filename().string();
    const std::string error = test::config_error_of([&] {
      if (folder == "soc") {
        load_soc_config(file.string(), {});
      } else if (folder == "ddr") {
        load_ddr_preset(file.string());
      } else if (folder == "npu") {
        load_npu_preset(file.string());
      } else {
        ConfigNode::load_file(file.string());  // parsed strictly; its own tool reads it
      }
    });
    EXPECT_EQ(error, "") << file;
  }
}

TEST(Configs, EverySocDescriptionBuilds) {
  for (const fs::path& file : yaml_files(kConfigs / "soc")) build_in_child(file.string(), {});
}

TEST(Configs, EveryDdrPresetBuildsInTheDefaultSoc) {
  for (const fs::path& file : yaml_files(kConfigs / "ddr")) {
    build_in_child(kDefaultSoc, {"memory_map.ddr.preset=" + file.string()});
  }
}

TEST(Configs, EveryNpuPresetBuildsInTheDefaultSoc) {
  for (const fs::path& file : yaml_files(kConfigs / "npu")) {
    build_in_child(kDefaultSoc, {"npu.preset=" + file.string()});
  }
}

}  // namespace
}  // namespace socsim
