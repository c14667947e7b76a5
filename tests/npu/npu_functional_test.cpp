// The NPU's functional model against the firmware's int8 CPU kernels, compiled for the host:
// every layer type, on random data and random quantisation parameters, must agree byte for
// byte.
#include "models/npu/npu_functional.h"
#include "models/npu/npu_post_op.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "firmware/abi/generated/operators.h"
#include "firmware/int8/arithmetic.h"
#include "firmware/runtime/kernel_registry.h"
#include "firmware/runtime/tensor.h"

namespace socsim {
namespace {

using runtime::KernelArgs;
using runtime::ScalarType;
using runtime::Tensor;

Tensor make_tensor(ScalarType type, std::vector<int32_t> sizes, void* data) {
  Tensor t;
  t.dtype = type;
  t.rank = static_cast<uint32_t>(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) t.sizes[i] = sizes[i];
  t.data = data;
  t.nbytes = t.numel() * runtime::element_size(type);
  return t;
}

// The CPU kernel of an NPU opcode: the operator the schema gives that opcode.
const char* kernel_of(uint8_t opcode) {
  switch (opcode) {
#define SOCSIM_KERNEL_OF(code, op, report, source) \
  case code:                                       \
    return ops::op::kName;
    SOCSIM_NPU_LAYERS(SOCSIM_KERNEL_OF)
#undef SOCSIM_KERNEL_OF
  }
  return "";
}

// Runs the CPU kernel of an NPU opcode on int8 tensors; its status.
runtime::Error run_cpu_kernel(uint8_t opcode, std::vector<Tensor*> ins, Tensor* out,
                              const int32_t* words = nullptr, uint32_t count = 0) {
  const char* kernel = kernel_of(opcode);
  const runtime::Kernel* k = runtime::find_kernel(kernel, std::strlen(kernel), ScalarType::kInt8);
  if (k == nullptr) return runtime::Error::kOperatorMissing;
  KernelArgs args;
  args.inputs = ins.data();
  args.input_count = static_cast<uint32_t>(ins.size());
  args.outputs = &out;
  args.output_count = 1;
  args.args = words;
  args.arg_count = count;
  return k->fn(args);
}

std::vector<int32_t> dims(const uint32_t* shape, size_t rank) {
  return std::vector<int32_t>(shape, shape + rank);
}

class Layer {
 public:
  explicit Layer(uint8_t op) {
    std::memset(&d, 0, sizeof d);
    d.op = op;
    d.dtype = npu::kDtypeInt8;
  }
  void shapes(std::vector<uint32_t> in, std::vector<uint32_t> in1, std::vector<uint32_t> out) {
    for (int i = 0; i < 4; ++i) {
      d.in_shape[i] = in[i];
      d.in1_shape[i] = in1.empty() ? 0 : in1[i];
      d.out_shape[i] = out[i];
    }
  }
  void args(std::vector<int32_t> a) {
    d.arg_count = static_cast<uint8_t>(a.size());
    for (size_t i = 0; i < a.size(); ++i) d.args[i] = a[i];
  }
  npu::LayerDescriptor d;
};

class NpuFunctionalTest : public ::testing::Test {
 protected:
  std::mt19937 rng{1234};

  std::vector<int8_t> random_i8(uint64_t n) {
    std::uniform_int_distribution<int> dist(-128, 127);
    std::vector<int8_t> v(n);
    for (auto& x : v) x = static_cast<int8_t>(dist(rng));
    return v;
  }
  std::vector<int32_t> random_bias(uint64_t n) {
    std::uniform_int_distribution<int32_t> dist(-20000, 20000);
    std::vector<int32_t> v(n);
    for (auto& x : v) x = dist(rng);
    return v;
  }
  // Multipliers normalised as the compiler makes them, scaled so outputs span the int8 range.
  std::vector<int32_t> random_requant(uint64_t channels, int shift_lo, int shift_hi) {
    std::uniform_int_distribution<int32_t> m(1 << 30, 0x7FFFFFFF);
    std::uniform_int_distribution<int32_t> n(shift_lo, shift_hi);
    std::vector<int32_t> v(2 * channels);
    for (uint64_t c = 0; c < channels; ++c) {
      v[2 * c] = m(rng);
      v[2 * c + 1] = n(rng);
    }
    return v;
  }

  // Runs the layer's CPU kernel and the NPU model on the same operands; expects equal bytes.
  void expect_same(const Layer& layer, const std::vector<int8_t>& x, const std::vector<int8_t>& w,
                   const std::vector<int32_t>& bias, const std::vector<int32_t>& rq, size_t in_rank,
                   size_t out_rank) {
    const npu::LayerDescriptor& d = layer.d;
    const char* kernel = kernel_of(d.op);
    ASSERT_EQ(validate_layer(d), npu::kNpuOk) << kernel;
    const NpuOperandSizes sizes = operand_sizes(d);
    ASSERT_EQ(sizes.bytes[npu::kAddrInput], x.size());
    std::vector<int8_t> cpu_out(sizes.bytes[npu::kAddrOutput], 0x55);
    std::vector<int8_t> npu_out(sizes.bytes[npu::kAddrOutput], 0x2A);

    std::vector<Tensor> inputs;
    std::vector<int32_t> in_dims = dims(d.in_shape, in_rank);
    std::vector<int32_t> out_dims = dims(d.out_shape, out_rank);
    if (d.op == npu::kOpFullyConnected) {
      in_dims = {static_cast<int32_t>(d.in_shape[0]), static_cast<int32_t>(d.in_shape[1])};
      out_dims = {static_cast<int32_t>(d.out_shape[0]), static_cast<int32_t>(d.out_shape[1])};
    }
    inputs.push_back(make_tensor(ScalarType::kInt8, in_dims, const_cast<int8_t*>(x.data())));
    if (d.op == npu::kOpConv || d.op == npu::kOpFullyConnected) {
      const size_t wr = d.op == npu::kOpFullyConnected ? 2 : 4;
      inputs.push_back(make_tensor(ScalarType::kInt8, dims(d.in1_shape, wr),
                                   const_cast<int8_t*>(w.data())));
      inputs.push_back(make_tensor(ScalarType::kInt32, {static_cast<int32_t>(bias.size())},
                                   const_cast<int32_t*>(bias.data())));
      inputs.push_back(make_tensor(ScalarType::kInt32,
                                   {static_cast<int32_t>(rq.size() / 2), 2},
                                   const_cast<int32_t*>(rq.data())));
    } else if (d.op == npu::kOpAdd || d.op == npu::kOpMul) {
      inputs.push_back(make_tensor(ScalarType::kInt8, dims(d.in1_shape, in_rank),
                                   const_cast<int8_t*>(w.data())));
    }
    Tensor out = make_tensor(ScalarType::kInt8, out_dims, cpu_out.data());
    std::vector<Tensor*> in_ptrs;
    for (Tensor& t : inputs) in_ptrs.push_back(&t);
    Tensor* out_ptr = &out;
    KernelArgs args;
    args.inputs = in_ptrs.data();
    args.input_count = static_cast<uint32_t>(in_ptrs.size());
    args.outputs = &out_ptr;
    args.output_count = 1;
    args.args = d.args;
    args.arg_count = d.arg_count;
    const runtime::Kernel* k = runtime::find_kernel(kernel, std::strlen(kernel), ScalarType::kInt8);
    ASSERT_NE(k, nullptr) << kernel;
    ASSERT_EQ(k->fn(args), runtime::Error::kOk) << kernel;

    NpuOperands ops;
    ops.input = x.data();
    ops.weights = w.empty() ? nullptr : w.data();
    ops.bias = bias.empty() ? nullptr : bias.data();
    ops.requant = rq.empty() ? nullptr : rq.data();
    ops.output = npu_out.data();
    ASSERT_EQ(execute_layer(d, ops), npu::kNpuOk) << kernel;
    for (size_t i = 0; i < cpu_out.size(); ++i) {
      ASSERT_EQ(npu_out[i], cpu_out[i]) << kernel << " output byte " << i;
    }
    // The data must not be trivially saturated: a check that cannot fail is no check.
    int distinct = 0;
    std::vector<bool> seen(256);
    for (int8_t v : cpu_out) {
      if (!seen[static_cast<uint8_t>(v)]) ++distinct;
      seen[static_cast<uint8_t>(v)] = true;
    }
    EXPECT_GT(distinct, cpu_out.size() > 64 ? 8 : 1) << kernel << ": degenerate test data";
  }

  // conv2d: geometry = stride_h, stride_w, pad t, l, b, r, dil_h, dil_w, groups.
  void conv_case(uint32_t n, uint32_t cin, uint32_t h, uint32_t w, uint32_t cout, uint32_t kh,
                 uint32_t kw, std::vector<int32_t> geo, int32_t zp_in, int32_t zp_out,
                 int32_t lo, int32_t hi) {
    const uint32_t groups = static_cast<uint32_t>(geo[8]);
    auto out_size = [](uint32_t in, uint32_t k, int32_t s, int32_t p0, int32_t p1, int32_t dl) {
      return static_cast<uint32_t>((static_cast<int32_t>(in) + p0 + p1 - dl * (static_cast<int32_t>(k) - 1) - 1) / s + 1);
    };
    const uint32_t ho = out_size(h, kh, geo[0], geo[2], geo[4], geo[6]);
    const uint32_t wo = out_size(w, kw, geo[1], geo[3], geo[5], geo[7]);
    Layer l(npu::kOpConv);
    l.shapes({n, cin, h, w}, {cout, cin / groups, kh, kw}, {n, cout, ho, wo});
    std::vector<int32_t> a = geo;
    a.insert(a.end(), {zp_in, zp_out, lo, hi});
    l.args(a);
    const uint32_t k = cin / groups * kh * kw;
    // Shift so that |acc| ~ 128 * 64 * sqrt(k) lands in int8: n ~ 31 + log2(acc / 64).
    int shift = 31 + 1;
    for (uint32_t v = 8192 * static_cast<uint32_t>(std::sqrt(double(k))) / 64; v > 1; v >>= 1) ++shift;
    expect_same(l, random_i8(uint64_t{n} * cin * h * w), random_i8(uint64_t{cout} * k),
                random_bias(cout), random_requant(cout, shift - 1, shift + 1), 4, 4);
  }
};

TEST_F(NpuFunctionalTest, Conv3x3SamePadding) {
  conv_case(1, 8, 9, 11, 12, 3, 3, {1, 1, 1, 1, 1, 1, 1, 1, 1}, 0, 0, -128, 127);
}

TEST_F(NpuFunctionalTest, ConvStrideAsymmetricPaddingZeroPoints) {
  conv_case(2, 5, 10, 7, 6, 3, 2, {2, 3, 0, 1, 2, 1, 1, 1, 1}, 3, -5, -128, 127);
}

TEST_F(NpuFunctionalTest, ConvDilation) {
  conv_case(1, 4, 12, 12, 7, 3, 3, {1, 1, 2, 2, 2, 2, 2, 2, 1}, 0, 0, -128, 127);
}

TEST_F(NpuFunctionalTest, ConvDepthwiseStride2) {
  conv_case(1, 16, 14, 14, 16, 3, 3, {2, 2, 1, 1, 1, 1, 1, 1, 16}, 0, 0, -128, 127);
}

TEST_F(NpuFunctionalTest, ConvGrouped) {
  conv_case(1, 8, 6, 6, 12, 3, 3, {1, 1, 1, 1, 1, 1, 1, 1, 4}, 1, 2, -128, 127);
}

TEST_F(NpuFunctionalTest, Conv1x1WithFusedRelu) {
  conv_case(1, 40, 5, 5, 33, 1, 1, {1, 1, 0, 0, 0, 0, 1, 1, 1}, 0, 0, 0, 127);
}

TEST_F(NpuFunctionalTest, ConvWithFusedClip) {
  conv_case(1, 6, 8, 8, 10, 3, 3, {1, 1, 1, 1, 1, 1, 1, 1, 1}, 0, 4, -20, 50);
}

TEST_F(NpuFunctionalTest, FullyConnectedWithRelu) {
  Layer l(npu::kOpFullyConnected);
  l.shapes({3, 37, 1, 1}, {19, 37, 1, 1}, {3, 19, 1, 1});
  l.args({2, -3, -3, 127});
  expect_same(l, random_i8(3 * 37), random_i8(19 * 37), random_bias(19), random_requant(19, 38, 40),
              2, 2);
}

TEST_F(NpuFunctionalTest, ElementwiseAdd) {
  Layer l(npu::kOpAdd);
  l.shapes({1, 5, 6, 7}, {1, 5, 6, 7}, {1, 5, 6, 7});
  // zp_a, m_a, zp_b, m_b, n, zp_out, lo, hi
  l.args({3, 1 << 19, -2, 3 << 18, 20, 1, -128, 127});
  expect_same(l, random_i8(210), random_i8(210), {}, {}, 4, 4);
}

TEST_F(NpuFunctionalTest, ElementwiseAddWithFusedRelu) {
  Layer l(npu::kOpAdd);
  l.shapes({1, 4, 5, 5}, {1, 4, 5, 5}, {1, 4, 5, 5});
  l.args({0, 1 << 20, 0, 1 << 20, 21, 0, 0, 127});
  expect_same(l, random_i8(100), random_i8(100), {}, {}, 4, 4);
}

TEST_F(NpuFunctionalTest, ElementwiseMul) {
  Layer l(npu::kOpMul);
  l.shapes({1, 3, 8, 9}, {1, 3, 8, 9}, {1, 3, 8, 9});
  // zp_a, zp_b, m, n, zp_out, lo, hi
  l.args({1, -1, 1 << 30, 37, 2, -128, 127});
  expect_same(l, random_i8(216), random_i8(216), {}, {}, 4, 4);
}

// A per-channel second operand (squeeze-and-excitation's scale): the CPU kernel broadcasts
// it, the NPU applies each value to its channel's plane.
TEST_F(NpuFunctionalTest, ElementwiseMulPerChannel) {
  Layer l(npu::kOpMul);
  l.shapes({2, 6, 5, 7}, {2, 6, 1, 1}, {2, 6, 5, 7});
  l.args({-3, -128, 1 << 30, 36, 2, -90, 127});  // a bound, the sigmoid's zero point -128
  expect_same(l, random_i8(420), random_i8(12), {}, {}, 4, 4);
}

TEST_F(NpuFunctionalTest, ElementwiseAddPerChannelWithFusedRelu) {
  Layer l(npu::kOpAdd);
  l.shapes({1, 9, 4, 3}, {1, 9, 1, 1}, {1, 9, 4, 3});
  l.args({2, 1 << 20, -5, 3 << 19, 21, -4, -4, 127});
  expect_same(l, random_i8(108), random_i8(9), {}, {}, 4, 4);
}

TEST(NpuFunctional, PerChannelOperandShapes) {
  Layer l(npu::kOpMul);
  l.args({0, 0, 1 << 30, 36, 0, -128, 127});
  l.shapes({1, 8, 4, 4}, {1, 8, 1, 1}, {1, 8, 4, 4});
  EXPECT_EQ(validate_layer(l.d), npu::kNpuOk);
  EXPECT_EQ(operand_sizes(l.d).bytes[npu::kAddrWeights], 8u);
  l.shapes({1, 8, 4, 4}, {1, 8, 4, 4}, {1, 8, 4, 4});
  EXPECT_EQ(validate_layer(l.d), npu::kNpuOk);
  EXPECT_EQ(operand_sizes(l.d).bytes[npu::kAddrWeights], 128u);
  // Only one value per channel broadcasts: not per row, column or batch, not other channels.
  for (std::vector<uint32_t> in1 : std::vector<std::vector<uint32_t>>{
           {1, 4, 1, 1}, {1, 8, 4, 1}, {1, 8, 1, 4}, {1, 1, 1, 1}, {2, 8, 1, 1}, {1, 16, 1, 1}}) {
    l.shapes({1, 8, 4, 4}, in1, {1, 8, 4, 4});
    EXPECT_EQ(validate_layer(l.d), npu::kNpuBadShape) << in1[0] << in1[1] << in1[2] << in1[3];
  }
  l.shapes({1, 8, 1, 1}, {1, 8, 1, 1}, {1, 8, 4, 4});  // the big operand is the first
  EXPECT_EQ(validate_layer(l.d), npu::kNpuBadShape);
  l.shapes({2, 8, 4, 4}, {2, 8, 1, 1}, {2, 8, 4, 4});
  l.args({0, 200, 1 << 30, 36, 0, -128, 127});  // per-channel or not, the kernel's checks
  EXPECT_EQ(validate_layer(l.d), npu::kNpuBadArgs);
}

// A lookup stage after a layer (post_op): the layer's CPU kernel, then the lookup's CPU
// kernel on its output, against the NPU's one fused layer.
class NpuPostOpTest : public NpuFunctionalTest {
 protected:
  // The lookup operator `lookup` (an opcode) with `table` on `x`, on the CPU.
  std::vector<int8_t> cpu_lookup(uint8_t lookup, const std::vector<int8_t>& table,
                                 std::vector<int8_t> x) {
    const char* kernel = kernel_of(lookup);
    std::vector<int8_t> y(x.size());
    Tensor in = make_tensor(ScalarType::kInt8, {static_cast<int32_t>(x.size())}, x.data());
    Tensor t = make_tensor(ScalarType::kInt8, {256}, const_cast<int8_t*>(table.data()));
    Tensor out = make_tensor(ScalarType::kInt8, {static_cast<int32_t>(y.size())}, y.data());
    EXPECT_EQ(run_cpu_kernel(lookup, {&in, &t}, &out), runtime::Error::kOk) << kernel;
    return y;
  }

  // Runs `layer` without and with the post-op `lookup` and compares with the CPU's two
  // kernels; returns the fused output.
  void expect_fused(Layer layer, uint8_t lookup, const std::vector<int8_t>& x,
                    const std::vector<int8_t>& w, const std::vector<int32_t>& bias,
                    const std::vector<int32_t>& rq) {
    const std::vector<int8_t> table = random_i8(256);
    ASSERT_EQ(validate_layer(layer.d), npu::kNpuOk);
    const uint64_t n = operand_sizes(layer.d).bytes[npu::kAddrOutput];
    std::vector<int8_t> plain(n), fused(n);
    NpuOperands ops;
    ops.input = x.data();
    ops.weights = w.data();
    ops.bias = bias.empty() ? nullptr : bias.data();
    ops.requant = rq.empty() ? nullptr : rq.data();
    ops.output = plain.data();
    ASSERT_EQ(execute_layer(layer.d, ops), npu::kNpuOk);
    layer.d.post_op = lookup;
    ASSERT_EQ(validate_layer(layer.d), npu::kNpuOk);
    EXPECT_EQ(operand_sizes(layer.d).bytes[npu::kAddrTable], 256u);
    ops.output = fused.data();
    ops.table = table.data();
    ASSERT_EQ(execute_layer(layer.d, ops), npu::kNpuOk);
    const std::vector<int8_t> expected = cpu_lookup(lookup, table, plain);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(fused[i], expected[i]) << "byte " << i;
    EXPECT_NE(fused, plain);
  }
};

TEST_F(NpuPostOpTest, ConvThenSigmoid) {
  Layer l(npu::kOpConv);
  l.shapes({1, 8, 6, 6}, {12, 8, 3, 3}, {1, 12, 6, 6});
  l.args({1, 1, 1, 1, 1, 1, 1, 1, 1, 3, -5, -128, 127});
  expect_fused(l, npu::kOpSigmoid, random_i8(288), random_i8(12 * 72), random_bias(12),
               random_requant(12, 41, 43));
}

TEST_F(NpuPostOpTest, FullyConnectedThenTanh) {
  Layer l(npu::kOpFullyConnected);
  l.shapes({3, 20, 1, 1}, {7, 20, 1, 1}, {3, 7, 1, 1});
  l.args({2, -1, -128, 127});
  expect_fused(l, npu::kOpTanh, random_i8(60), random_i8(140), random_bias(7),
               random_requant(7, 40, 42));
}

TEST_F(NpuPostOpTest, AddAndPerChannelMulThenLookups) {
  Layer add(npu::kOpAdd);
  add.shapes({1, 5, 6, 7}, {1, 5, 6, 7}, {1, 5, 6, 7});
  add.args({3, 1 << 19, -2, 3 << 18, 20, 1, -128, 127});
  expect_fused(add, npu::kOpSiLU, random_i8(210), random_i8(210), {}, {});
  expect_fused(add, npu::kOpHardSwish, random_i8(210), random_i8(210), {}, {});
  Layer mul(npu::kOpMul);
  mul.shapes({1, 6, 5, 7}, {1, 6, 1, 1}, {1, 6, 5, 7});
  mul.args({-3, -128, 1 << 30, 36, 2, -128, 127});
  expect_fused(mul, npu::kOpGELU, random_i8(210), random_i8(6), {}, {});
}

TEST(NpuFunctional, PostOpMustBeALookupAfterARequantisedOutput) {
  Layer conv(npu::kOpConv);
  conv.shapes({1, 4, 8, 8}, {8, 4, 3, 3}, {1, 8, 6, 6});
  conv.args({1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, -128, 127});
  for (uint32_t lookup : {npu::kOpSigmoid, npu::kOpTanh, npu::kOpHardSigmoid, npu::kOpHardSwish,
                          npu::kOpSiLU, npu::kOpGELU, npu::kOpPow}) {
    conv.d.post_op = lookup;
    EXPECT_EQ(validate_layer(conv.d), npu::kNpuOk) << lookup;
    EXPECT_STRNE(post_op_class(conv.d), nullptr);
  }
  conv.d.post_op = npu::kOpSigmoid;
  EXPECT_STREQ(post_op_class(conv.d), "sigmoid");
  for (uint32_t bad : {uint32_t{npu::kOpAdd}, uint32_t{npu::kOpConv}, 99u, 0x108u}) {
    conv.d.post_op = bad;  // not a lookup layer (0x108: a lookup's opcode above the byte)
    EXPECT_EQ(validate_layer(conv.d), npu::kNpuBadArgs) << bad;
  }
  Layer pool(npu::kOpMaxPool);  // no requantised output stage
  pool.shapes({1, 6, 10, 10}, {}, {1, 6, 6, 6});
  pool.args({3, 3, 2, 2, 1, 1, 1, 1, 1});
  EXPECT_EQ(validate_layer(pool.d), npu::kNpuOk);
  pool.d.post_op = npu::kOpSigmoid;
  EXPECT_EQ(validate_layer(pool.d), npu::kNpuBadArgs);
  Layer lookup(npu::kOpSigmoid);  // nor is a lookup followed by another
  lookup.shapes({1, 4, 4, 4}, {1, 1, 1, 256}, {1, 4, 4, 4});
  EXPECT_EQ(validate_layer(lookup.d), npu::kNpuOk);
  EXPECT_EQ(operand_sizes(lookup.d).bytes[npu::kAddrTable], 0u);
  lookup.d.post_op = npu::kOpTanh;
  EXPECT_EQ(validate_layer(lookup.d), npu::kNpuBadArgs);
}

TEST_F(NpuFunctionalTest, MaxPool3x3Stride2CeilMode) {
  Layer l(npu::kOpMaxPool);
  l.shapes({1, 6, 10, 10}, {}, {1, 6, 6, 6});
  l.args({3, 3, 2, 2, 1, 1, 1, 1, 1});
  expect_same(l, random_i8(600), {}, {}, {}, 4, 4);
}

TEST_F(NpuFunctionalTest, AvgPoolBothDivisors) {
  for (int include_pad : {0, 1}) {
    Layer l(npu::kOpAveragePool);
    l.shapes({2, 3, 9, 9}, {}, {2, 3, 5, 5});
    // kernel, stride, pads, ceil_mode, count_include_pad, zp_in, zp_out, m, n
    l.args({3, 3, 2, 2, 1, 1, 1, 1, 0, include_pad, 2, -3, 5 << 20, 23});
    expect_same(l, random_i8(486), {}, {}, {}, 4, 4);
  }
}

TEST_F(NpuFunctionalTest, GlobalAvgPool) {
  Layer l(npu::kOpGlobalAveragePool);
  l.shapes({1, 70, 7, 7}, {}, {1, 70, 1, 1});
  l.args({0, 1, 3 << 21, 22});
  expect_same(l, random_i8(70 * 49), {}, {}, {}, 4, 4);
}

TEST(NpuFunctional, RejectsBadDescriptors) {
  Layer l(npu::kOpConv);
  l.shapes({1, 4, 8, 8}, {8, 4, 3, 3}, {1, 8, 6, 6});
  l.args({1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, -128, 127});
  EXPECT_EQ(validate_layer(l.d), npu::kNpuOk);
  npu::LayerDescriptor bad = l.d;
  bad.out_shape[2] = 7;
  EXPECT_EQ(validate_layer(bad), npu::kNpuBadShape);
  bad = l.d;
  bad.op = 99;
  EXPECT_EQ(validate_layer(bad), npu::kNpuBadOpcode);
  bad = l.d;
  bad.dtype = 1;
  EXPECT_EQ(validate_layer(bad), npu::kNpuBadDtype);
  bad = l.d;  // a convolution reads a model's uint8 input, with a zero point up to 255
  bad.dtype = npu::kDtypeUInt8;
  bad.args[9] = 200;
  EXPECT_EQ(validate_layer(bad), npu::kNpuOk);
  bad.args[9] = 256;
  EXPECT_EQ(validate_layer(bad), npu::kNpuBadArgs);
  Layer add(npu::kOpAdd);  // the other layers read int8 only
  add.shapes({1, 4, 2, 2}, {1, 4, 2, 2}, {1, 4, 2, 2});
  add.args({0, 1 << 20, 0, 1 << 20, 21, 0, -128, 127});
  EXPECT_EQ(validate_layer(add.d), npu::kNpuOk);
  add.d.dtype = npu::kDtypeUInt8;
  EXPECT_EQ(validate_layer(add.d), npu::kNpuBadDtype);
  bad = l.d;
  bad.args[11] = 10;
  bad.args[12] = 5;
  EXPECT_EQ(validate_layer(bad), npu::kNpuBadArgs);
  bad = l.d;
  bad.arg_count = 12;
  EXPECT_EQ(validate_layer(bad), npu::kNpuBadArgs);
  EXPECT_EQ(layer_macs(l.d), 8ull * 36 * 4 * 9);
}

// The NPU applies the kernels' window rules (firmware/int8/arithmetic.h): parameters above
// kMaxWindowParam are refused, and spans that do not fit 32 bits are computed in 64 bits
// (the model's own copy used to accept the first and overflow on the second).
TEST(NpuFunctional, WindowParametersHaveTheKernelsBounds) {
  Layer pool(npu::kOpMaxPool);
  pool.shapes({1, 1, 1, 1}, {}, {1, 1, 1, 1});
  pool.args({1, 1, kernels::kMaxWindowParam, 1, 0, 0, 0, 0, 0});
  EXPECT_EQ(validate_layer(pool.d), npu::kNpuOk);
  pool.args({1, 1, kernels::kMaxWindowParam + 1, 1, 0, 0, 0, 0, 0});
  EXPECT_EQ(validate_layer(pool.d), npu::kNpuBadShape);

  // kernel 3, dilation 2^30: the span 2^31 + 1 does not fit int32.
  Layer conv(npu::kOpConv);
  conv.shapes({1, 1, 8, 8}, {1, 1, 3, 1}, {1, 1, 8, 8});
  conv.args({1, 1, 0, 0, 0, 0, 1 << 30, 1, 1, 0, 0, -128, 127});
  EXPECT_EQ(validate_layer(conv.d), npu::kNpuBadShape);
}

// A global average over the largest plane the kernels sum in int32 (2^23 elements, all -128)
// is exact; a larger plane, whose int32 sum could overflow, is refused like the CPU kernel
// refuses it (it used to overflow and give 1 instead of -128).
TEST(NpuFunctional, GlobalAveragePoolPlaneBound) {
  Layer l(npu::kOpGlobalAveragePool);
  l.shapes({1, 1, 2048, 4096}, {}, {1, 1, 1, 1});
  l.args({0, 0, 1 << 22, 22});  // multiplier 1
  ASSERT_EQ(validate_layer(l.d), npu::kNpuOk);
  std::vector<int8_t> x(2048u * 4096u, -128);
  int8_t y = 0;
  NpuOperands ops;
  ops.input = x.data();
  ops.output = &y;
  ASSERT_EQ(execute_layer(l.d, ops), npu::kNpuOk);
  EXPECT_EQ(y, -128);

  l.shapes({1, 1, 4096, 4096}, {}, {1, 1, 1, 1});
  EXPECT_EQ(validate_layer(l.d), npu::kNpuBadShape);
}

// Operands and work are capped before anything is allocated or computed (docs/hardening.md,
// "Limits"): each dimension below 2^16 still allows a 4 GiB weight matrix, or a layer of
// 10^10 MACs that would compute for minutes inside one event.
TEST(NpuFunctional, OperandBytesAndWorkAreCapped) {
  Layer fc(npu::kOpFullyConnected);
  fc.args({0, 0, -128, 127});
  fc.shapes({1, 16384, 1, 1}, {16384, 16384, 1, 1}, {1, 16384, 1, 1});  // 256 MiB: the cap
  EXPECT_EQ(validate_layer(fc.d), npu::kNpuOk);
  fc.shapes({1, 65536, 1, 1}, {65536, 65536, 1, 1}, {1, 65536, 1, 1});  // 4 GiB of weights
  EXPECT_EQ(validate_layer(fc.d), npu::kNpuBadShape);

  Layer conv(npu::kOpConv);
  conv.args({1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, -128, 127});
  conv.shapes({1, 128, 128, 128}, {128, 128, 3, 3}, {1, 128, 128, 128});  // 2.4 x 10^9 MACs
  EXPECT_EQ(validate_layer(conv.d), npu::kNpuOk);
  conv.shapes({1, 256, 128, 128}, {256, 256, 3, 3}, {1, 256, 128, 128});  // 9.7 x 10^9
  EXPECT_EQ(validate_layer(conv.d), npu::kNpuBadShape);

  // 2049 x 2049 outputs of a 2048 x 2048 window: 1.8 x 10^13 elements visited.
  Layer pool(npu::kOpMaxPool);
  pool.shapes({1, 1, 4096, 4096}, {}, {1, 1, 2049, 2049});
  pool.args({2048, 2048, 1, 1, 0, 0, 0, 0, 0});
  EXPECT_EQ(validate_layer(pool.d), npu::kNpuBadShape);
  pool.shapes({1, 1, 4096, 4096}, {}, {1, 1, 65, 65});  // stride 32: 1.8 x 10^10
  pool.args({2048, 2048, 32, 32, 0, 0, 0, 0, 0});
  EXPECT_EQ(validate_layer(pool.d), npu::kNpuBadShape);
  pool.shapes({1, 1, 4096, 4096}, {}, {1, 1, 2, 2});  // 2^24
  pool.args({2048, 2048, 2048, 2048, 0, 0, 0, 0, 0});
  EXPECT_EQ(validate_layer(pool.d), npu::kNpuOk);
}

// Nearest resize by integer factors: the CPU kernel and the NPU on the same index table.
class NpuResizeTest : public NpuFunctionalTest {
 protected:
  // The table that repeats every source row s_h and every source column s_w times.
  static std::vector<int32_t> repeat_index(uint32_t ho, uint32_t wo, uint32_t s_h, uint32_t s_w) {
    std::vector<int32_t> index;
    for (uint32_t i = 0; i < ho; ++i) index.push_back(static_cast<int32_t>(i / s_h));
    for (uint32_t j = 0; j < wo; ++j) index.push_back(static_cast<int32_t>(j / s_w));
    return index;
  }
  static Layer resize(std::vector<uint32_t> in, std::vector<uint32_t> out) {
    Layer l(npu::kOpResize);
    l.shapes(in, {1, 1, 1, out[2] + out[3]}, out);
    return l;
  }
  // Both results of `x` resized as `layer` says with `index`; the NPU's status.
  npu::NpuError run(const Layer& layer, const std::vector<int8_t>& x, std::vector<int32_t> index,
                    std::vector<int8_t>* cpu, std::vector<int8_t>* npu_out) {
    const npu::LayerDescriptor& d = layer.d;
    const NpuOperandSizes sizes = operand_sizes(d);
    EXPECT_EQ(sizes.bytes[npu::kAddrInput], x.size());
    EXPECT_EQ(sizes.bytes[npu::kAddrWeights], 4 * index.size());
    cpu->assign(sizes.bytes[npu::kAddrOutput], 0x55);
    npu_out->assign(sizes.bytes[npu::kAddrOutput], 0x2A);
    Tensor in = make_tensor(ScalarType::kInt8, dims(d.in_shape, 4), const_cast<int8_t*>(x.data()));
    Tensor t = make_tensor(ScalarType::kInt32, {static_cast<int32_t>(index.size())}, index.data());
    Tensor out = make_tensor(ScalarType::kInt8, dims(d.out_shape, 4), cpu->data());
    EXPECT_EQ(run_cpu_kernel(d.op, {&in, &t}, &out), runtime::Error::kOk);
    NpuOperands ops;
    ops.input = x.data();
    ops.weights = reinterpret_cast<const int8_t*>(index.data());
    ops.output = npu_out->data();
    return execute_layer(d, ops);
  }
};

TEST_F(NpuResizeTest, IntegerFactorsMatchTheCpuKernel) {
  struct Case {
    std::vector<uint32_t> in, out;
  };
  for (const Case& c : std::vector<Case>{{{1, 8, 5, 4}, {1, 8, 10, 8}},
                                         {{2, 3, 4, 6}, {2, 3, 12, 12}},
                                         {{1, 16, 3, 3}, {1, 16, 3, 12}},
                                         {{1, 1, 1, 1}, {1, 1, 64, 7}}}) {
    const Layer l = resize(c.in, c.out);
    ASSERT_EQ(validate_layer(l.d), npu::kNpuOk) << c.out[2] << "x" << c.out[3];
    const std::vector<int8_t> x = random_i8(c.in[0] * c.in[1] * c.in[2] * c.in[3]);
    std::vector<int8_t> cpu, npu_out;
    ASSERT_EQ(run(l, x, repeat_index(c.out[2], c.out[3], c.out[2] / c.in[2], c.out[3] / c.in[3]),
                  &cpu, &npu_out),
              npu::kNpuOk);
    EXPECT_EQ(npu_out, cpu) << c.out[2] << "x" << c.out[3];
    EXPECT_NE(cpu, std::vector<int8_t>(cpu.size(), 0x55));  // the kernel wrote its output
  }
}

// The unit repeats rows and columns: a table that does something else (align_corners on an
// odd size, a shifted row) is refused at run time, error 4, the output untouched.
TEST_F(NpuResizeTest, RefusesATableThatIsNotARepeat) {
  const Layer l = resize({1, 2, 4, 4}, {1, 2, 8, 8});
  const std::vector<int8_t> x = random_i8(32);
  std::vector<int32_t> index = repeat_index(8, 8, 2, 2);
  index[3] = 2;  // row 3 from source row 2 (in range: the CPU kernel accepts it)
  std::vector<int8_t> cpu, npu_out;
  EXPECT_EQ(run(l, x, index, &cpu, &npu_out), npu::kNpuBadArgs);
  EXPECT_EQ(npu_out, std::vector<int8_t>(npu_out.size(), 0x2A));
  index = repeat_index(8, 8, 2, 2);
  index[8 + 7] = 2;  // the last column from source column 2
  EXPECT_EQ(run(l, x, index, &cpu, &npu_out), npu::kNpuBadArgs);
}

TEST(NpuFunctional, ResizeDescriptorChecks) {
  Layer l(npu::kOpResize);
  l.shapes({1, 4, 5, 6}, {1, 1, 1, 10 + 18}, {1, 4, 10, 18});
  EXPECT_EQ(validate_layer(l.d), npu::kNpuOk);
  l.shapes({1, 4, 5, 6}, {1, 1, 1, 5 + 6}, {1, 4, 5, 6});  // factor 1 is a copy
  EXPECT_EQ(validate_layer(l.d), npu::kNpuOk);
  // Not an integer factor, a downscale, beyond 64, another channel count or batch.
  for (std::vector<uint32_t> out : std::vector<std::vector<uint32_t>>{{1, 4, 7, 6},
                                                                      {1, 4, 5, 9},
                                                                      {1, 4, 2, 6},
                                                                      {1, 4, 5 * 65, 6},
                                                                      {1, 8, 10, 12},
                                                                      {2, 4, 10, 12}}) {
    l.shapes({1, 4, 5, 6}, {1, 1, 1, out[2] + out[3]}, out);
    EXPECT_EQ(validate_layer(l.d), npu::kNpuBadShape) << out[0] << out[1] << out[2] << out[3];
  }
  l.shapes({1, 4, 5, 6}, {1, 1, 1, 10 + 18 - 1}, {1, 4, 10, 18});  // the table's length
  EXPECT_EQ(validate_layer(l.d), npu::kNpuBadShape);
  l.shapes({1, 4, 5, 6}, {1, 1, 10 + 18, 1}, {1, 4, 10, 18});
  EXPECT_EQ(validate_layer(l.d), npu::kNpuBadShape);
  l.shapes({1, 4, 5, 6}, {1, 1, 1, 10 + 18}, {1, 4, 10, 18});
  l.args({2});
  EXPECT_EQ(validate_layer(l.d), npu::kNpuBadArgs);
  l.args({});
  l.d.dtype = static_cast<uint8_t>(ScalarType::kFloat32);  // the CPU copies float32 too
  EXPECT_EQ(validate_layer(l.d), npu::kNpuBadDtype);
  l.d.dtype = npu::kDtypeUInt8;
  EXPECT_EQ(validate_layer(l.d), npu::kNpuBadDtype);
}

// The product of two activations: the CPU kernel (its batch broadcast) against the NPU layer.
TEST_F(NpuFunctionalTest, MatmulOfTwoActivationsMatchesTheCpuKernel) {
  struct Case {
    std::vector<uint32_t> a, b, y;
    std::vector<int32_t> args;  // zp_a, zp_b, m, n, zp_out, act_min, act_max
  };
  for (const Case& c : std::vector<Case>{
           {{1, 4, 16, 16}, {1, 4, 16, 16}, {1, 4, 16, 16}, {3, -2, 1 << 30, 40, -1, -128, 127}},
           {{2, 1, 5, 33}, {1, 3, 33, 7}, {2, 3, 5, 7}, {0, 5, 1 << 30, 41, 4, -4, 127}},
           {{1, 1, 9, 64}, {1, 1, 64, 3}, {1, 1, 9, 3}, {-128, 127, 1 << 29, 42, 0, -128, 100}}}) {
    Layer l(npu::kOpMatMul);
    l.shapes(c.a, c.b, c.y);
    l.args(c.args);
    ASSERT_EQ(validate_layer(l.d), npu::kNpuOk);
    const std::vector<int8_t> a = random_i8(c.a[0] * c.a[1] * c.a[2] * c.a[3]);
    const std::vector<int8_t> b = random_i8(c.b[0] * c.b[1] * c.b[2] * c.b[3]);
    std::vector<int8_t> cpu(c.y[0] * c.y[1] * c.y[2] * c.y[3], 0x55), npu_out(cpu.size(), 0x2A);
    Tensor ta =
        make_tensor(ScalarType::kInt8, dims(l.d.in_shape, 4), const_cast<int8_t*>(a.data()));
    Tensor tb =
        make_tensor(ScalarType::kInt8, dims(l.d.in1_shape, 4), const_cast<int8_t*>(b.data()));
    Tensor ty = make_tensor(ScalarType::kInt8, dims(l.d.out_shape, 4), cpu.data());
    ASSERT_EQ(run_cpu_kernel(l.d.op, {&ta, &tb}, &ty, l.d.args, l.d.arg_count),
              runtime::Error::kOk);
    NpuOperands ops;
    ops.input = a.data();
    ops.weights = b.data();
    ops.output = npu_out.data();
    ASSERT_EQ(execute_layer(l.d, ops), npu::kNpuOk);
    EXPECT_EQ(npu_out, cpu);
    std::vector<bool> seen(256);
    int distinct = 0;
    for (int8_t v : cpu) {
      if (!seen[static_cast<uint8_t>(v)]) ++distinct;
      seen[static_cast<uint8_t>(v)] = true;
    }
    EXPECT_GT(distinct, 8) << "degenerate test data";
    EXPECT_EQ(layer_macs(l.d), uint64_t{c.y[0]} * c.y[1] * c.y[2] * c.y[3] * c.a[3]);
  }
}

TEST(NpuFunctional, MatmulDescriptorChecks) {
  Layer l(npu::kOpMatMul);
  l.args({0, 0, 1 << 30, 40, 0, -128, 127});
  l.shapes({2, 4, 16, 8}, {2, 4, 8, 16}, {2, 4, 16, 16});
  EXPECT_EQ(validate_layer(l.d), npu::kNpuOk);
  EXPECT_EQ(operand_sizes(l.d).bytes[npu::kAddrWeights], 2u * 4 * 8 * 16);
  l.shapes({1, 4, 16, 8}, {2, 1, 8, 16}, {2, 4, 16, 16});  // both broadcast
  EXPECT_EQ(validate_layer(l.d), npu::kNpuOk);
  struct Bad {
    std::vector<uint32_t> a, b, y;
  };
  for (const Bad& c : std::vector<Bad>{{{1, 4, 16, 8}, {1, 4, 9, 16}, {1, 4, 16, 16}},  // K
                                       {{1, 4, 16, 8}, {1, 4, 8, 16}, {1, 4, 15, 16}},  // M
                                       {{1, 4, 16, 8}, {1, 4, 8, 16}, {1, 4, 16, 17}},  // N
                                       {{1, 2, 16, 8}, {1, 4, 8, 16}, {1, 4, 16, 16}},  // batch
                                       {{1, 4, 16, 8}, {3, 4, 8, 16}, {2, 4, 16, 16}},  // batch
                                       {{1, 1, 2, 33026}, {1, 1, 33026, 1}, {1, 1, 2, 1}}}) {
    l.shapes(c.a, c.b, c.y);
    EXPECT_EQ(validate_layer(l.d), npu::kNpuBadShape) << c.a[3] << " " << c.y[2];
  }
  l.shapes({1, 1, 2, 33025}, {1, 1, 33025, 1}, {1, 1, 2, 1});  // the int32 sum's bound
  EXPECT_EQ(validate_layer(l.d), npu::kNpuOk);
  l.shapes({1, 4, 16, 8}, {1, 4, 8, 16}, {1, 4, 16, 16});
  for (std::vector<int32_t> a :
       std::vector<std::vector<int32_t>>{{200, 0, 1 << 30, 40, 0, -128, 127},
                                         {0, 0, 1 << 30, 40, 0, 5, 4},
                                         {0, 0, 1 << 30, 0, 0, -128, 127},
                                         {0, 0, 1 << 30, 40, 0, -128}}) {
    l.args(a);
    EXPECT_EQ(validate_layer(l.d), npu::kNpuBadArgs) << a[0] << " " << a[3];
  }
  l.args({0, 0, 1 << 30, 40, 0, -128, 127});
  l.d.dtype = npu::kDtypeUInt8;
  EXPECT_EQ(validate_layer(l.d), npu::kNpuBadDtype);
}

// Requantisation to another scale (a concatenation's input): the CPU kernel's loop, bit for bit,
// over every int8 value; the kernel's argument checks.
TEST_F(NpuFunctionalTest, RequantizeMatchesTheCpuKernel) {
  std::vector<int8_t> x(512);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int8_t>(i);  // every value twice
  for (std::vector<int32_t> a : std::vector<std::vector<int32_t>>{
           {3, -5, 1 << 30, 30},            // scale x 1: a shift of the zero point
           {-128, 0, 1518500250, 31},       // x 0.707
           {0, 7, 1 << 30, 27}}) {          // x 8, saturating
    Layer l(npu::kOpRequantize);
    l.shapes({1, 8, 8, 8}, {}, {1, 8, 8, 8});
    l.args(a);
    ASSERT_EQ(validate_layer(l.d), npu::kNpuOk);
    std::vector<int8_t> cpu(x.size(), 0x55), npu_out(x.size(), 0x2A);
    Tensor in = make_tensor(ScalarType::kInt8, dims(l.d.in_shape, 4), x.data());
    Tensor out = make_tensor(ScalarType::kInt8, dims(l.d.out_shape, 4), cpu.data());
    ASSERT_EQ(run_cpu_kernel(l.d.op, {&in}, &out, l.d.args, l.d.arg_count), runtime::Error::kOk);
    NpuOperands ops;
    ops.input = x.data();
    ops.output = npu_out.data();
    ASSERT_EQ(execute_layer(l.d, ops), npu::kNpuOk);
    EXPECT_EQ(npu_out, cpu) << a[2] << " / 2^" << a[3];
    EXPECT_NE(cpu, x);
  }
  Layer l(npu::kOpRequantize);
  l.shapes({1, 8, 8, 8}, {}, {1, 8, 8, 4});
  l.args({0, 0, 1 << 30, 30});
  EXPECT_EQ(validate_layer(l.d), npu::kNpuBadShape);
  l.shapes({1, 8, 8, 8}, {}, {1, 8, 8, 8});
  for (std::vector<int32_t> a : std::vector<std::vector<int32_t>>{
           {200, 0, 1 << 30, 30}, {0, -129, 1 << 30, 30}, {0, 0, 1 << 30, 0}, {0, 0, 1 << 30}}) {
    l.args(a);
    EXPECT_EQ(validate_layer(l.d), npu::kNpuBadArgs) << a[0] << " " << a[1];
  }
  l.args({0, 0, 1 << 30, 30});
  l.d.dtype = npu::kDtypeUInt8;
  EXPECT_EQ(validate_layer(l.d), npu::kNpuBadDtype);
}

}  // namespace
}  // namespace socsim
