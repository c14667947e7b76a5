// TFLite's int8 add with broadcasting: tflite::add.out (firmware/int8/tflite_rounding.h).
#include "firmware/int8/tflite_rounding.h"
#include "firmware/kernels/elementwise.h"

namespace socsim::kernels {
namespace {

Error tflite_add_i8(const KernelArgs& k) {
  using Op = ops::TfliteAdd;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const TfliteSum sum = TfliteSum::of(Op::Args(k.args));
  if (!sum.valid()) return Error::kBadOperatorArgs;
  return binary_quantized_i8<Op>(k, sum);
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::TfliteAdd, kInt8, tflite_add_i8);

}  // namespace socsim::kernels
