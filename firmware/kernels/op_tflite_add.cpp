// TFLite's int8 add with broadcasting: tflite::add.out (firmware/int8/tflite_rounding.h).
#include "firmware/int8/tflite_rounding.h"
#include "firmware/kernels/elementwise.h"

namespace socsim::kernels {
namespace {

Error tflite_add_i8(const Tensor& a, const Tensor& b, Tensor& out, ops::TfliteAdd::Args args,
                    MemoryAllocator*) {
  const TfliteSum sum = TfliteSum::of(args);
  if (!sum.valid()) return Error::kBadOperatorArgs;
  return binary_quantized_i8(a, b, out, sum);
}

}  // namespace

SOCSIM_KERNEL(ops::TfliteAdd, tflite_add_i8, kInt8);

}  // namespace socsim::kernels
