// Soc::write_memory and read_memory, and the firmware loader on a segment without file bytes
// (all .bss): under UBSan (scripts/test.sh --sanitize) a memcpy from the empty vector's null
// data() was a report in every firmware test whose ELF has such a segment.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <systemc>
#include <vector>

#include "platform/firmware_loader.h"
#include "platform/soc.h"
#include "platform/soc_config.h"

namespace socsim {
namespace {

const std::string kDefaultSoc = std::string(SOCSIM_SOURCE_DIR) + "/configs/soc/default.yaml";

TEST(SocMemory, ASegmentWithoutFileBytesIsZeroFilled) {
  EXPECT_EXIT(
      {
        const SocConfig config = load_soc_config(kDefaultSoc, {});
        std::ostringstream console;
        Soc soc(config, "", console);
        const uint32_t addr = config.cpu.boot_addr + 0x1000;
        const std::vector<uint8_t> ones(16, 0xFF);
        bool ok = soc.write_memory(addr, ones.data(), ones.size());
        FirmwareImage image;
        image.path = "bss_only.elf";
        image.segments.push_back({addr, {}, 16, "segment 0"});
        load_firmware(image, soc);
        std::vector<uint8_t> back(16, 0xAA);
        ok = ok && soc.read_memory(addr, back.data(), back.size());
        ok = ok && back == std::vector<uint8_t>(16, 0);
        // no bytes: nothing is touched, and the pointers may be null
        ok = ok && soc.write_memory(addr, nullptr, 0) && soc.read_memory(addr, nullptr, 0);
        std::exit(ok ? 0 : 1);
      },
      testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace socsim
