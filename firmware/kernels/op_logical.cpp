// And, Or, Xor and Not on masks (aten::logical_{and,or,xor,not}.out): uint8 operands, nonzero
// is true; the result is 1 or 0; the binary ones broadcast.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

enum class Logic { kAnd, kOr, kXor };

template <Logic kLogic>
Error logical(const Tensor& a, const Tensor& b, Tensor& out) {
  Broadcast bc;
  SOCSIM_RT_TRY(bc.init(a, b, out));
  const uint8_t* pa = a.data_as<uint8_t>();
  const uint8_t* pb = b.data_as<uint8_t>();
  uint8_t* po = out.data_as<uint8_t>();
  for_each_broadcast(bc, out.numel(), [&](uint32_t i, uint32_t ia, uint32_t ib) {
    const bool x = pa[ia] != 0;
    const bool y = pb[ib] != 0;
    const bool r = kLogic == Logic::kAnd ? (x && y) : kLogic == Logic::kOr ? (x || y) : x != y;
    po[i] = r ? 1 : 0;
  });
  return Error::kOk;
}

Error logical_and(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator*) {
  return logical<Logic::kAnd>(a, b, out);
}
Error logical_or(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator*) {
  return logical<Logic::kOr>(a, b, out);
}
Error logical_xor(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator*) {
  return logical<Logic::kXor>(a, b, out);
}
Error logical_not(const Tensor& x, Tensor& out, MemoryAllocator*) {
  if (x.numel() != out.numel()) return Error::kShapeMismatch;
  const uint8_t* px = x.data_as<uint8_t>();
  uint8_t* po = out.data_as<uint8_t>();
  for (uint32_t i = 0; i < x.numel(); ++i) po[i] = px[i] == 0 ? 1 : 0;
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::LogicalAnd, logical_and, kUInt8);
SOCSIM_KERNEL(ops::LogicalOr, logical_or, kUInt8);
SOCSIM_KERNEL(ops::LogicalXor, logical_xor, kUInt8);
SOCSIM_KERNEL(ops::LogicalNot, logical_not, kUInt8);

}  // namespace socsim::kernels
