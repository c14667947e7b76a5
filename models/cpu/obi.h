// One cycle of a CV32E40P OBI port (instruction or data), as a core drives and sees it.
#pragma once

#include <cstdint>

namespace socsim {

/// Inputs of one OBI port for one cycle.
struct ObiInputs {
  bool gnt = false;
  bool rvalid = false;
  uint32_t rdata = 0;
};

/// A request on one OBI port in the current cycle. The address is word aligned for
/// instruction fetches; data requests carry the word address with the byte enables of the
/// bytes accessed (the CV32E40P's may also carry the offset of the first enabled byte).
struct ObiRequest {
  bool req = false;
  bool we = false;
  uint8_t be = 0;
  uint32_t addr = 0;
  uint32_t wdata = 0;  ///< store data in its byte lanes
};

}  // namespace socsim
