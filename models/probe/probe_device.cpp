#include "models/probe/probe_device.h"

namespace socsim {

bool ProbeDevice::read_reg(uint64_t offset, unsigned, uint64_t, uint32_t* value) {
  *value = offset == kMagicOffset ? kProbeMagic : 0;
  return true;
}

bool ProbeDevice::write_reg(uint64_t offset, unsigned, uint32_t value, uint64_t cycle) {
  if (offset != kBegin && offset != kEnd && offset != kValue) return false;
  ++marks_;
  if (hook_) hook_(static_cast<uint32_t>(offset), value, cycle);
  return true;
}

}  // namespace socsim
