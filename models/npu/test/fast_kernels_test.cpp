// The NPU's fast kernels (models/npu/fast_kernels.h) against the reference loops of the
// firmware (firmware/int8/conv_loops.h), byte for byte: convolutions of every kind (plain,
// grouped, many small groups, depthwise with and without a channel multiplier, pointwise)
// with strides, dilations, asymmetric padding, batches, channel counts that are no multiple
// of the blocks, random zero points, per-channel multipliers and shifts and fused activation
// bounds; fully connected layers of odd sizes; and the extreme operand values that give the
// largest sums.
#include "models/npu/fast_kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "firmware/int8/arithmetic.h"
#include "firmware/int8/conv_loops.h"

namespace socsim {
namespace {

struct Quantisation {
  int32_t zp_in = 0, zp_out = 0, lo = -128, hi = 127;
};

class FastKernelsTest : public ::testing::Test {
 protected:
  std::mt19937 rng{20261201};

  int32_t uniform(int32_t lo, int32_t hi) {
    return std::uniform_int_distribution<int32_t>(lo, hi)(rng);
  }
  std::vector<int8_t> random_i8(size_t n) {
    std::vector<int8_t> v(n);
    for (auto& x : v) x = static_cast<int8_t>(uniform(-128, 127));
    return v;
  }
  std::vector<int32_t> random_bias(size_t n) {
    std::vector<int32_t> v(n);
    for (auto& x : v) x = uniform(-20000, 20000);
    return v;
  }
  // Per-channel multipliers in [2^30, 2^31) and shifts that bring sums of `terms` random
  // products into the int8 range.
  std::vector<int32_t> random_requant(size_t channels, int64_t terms) {
    int shift = 31 + 1;
    for (int64_t v = 8192 * static_cast<int64_t>(std::sqrt(double(terms))) / 64; v > 1; v >>= 1) {
      ++shift;
    }
    std::vector<int32_t> v(2 * channels);
    for (size_t c = 0; c < channels; ++c) {
      v[2 * c] = uniform(1 << 30, 0x7FFFFFFF);
      v[2 * c + 1] = uniform(shift - 1, shift + 1);
    }
    return v;
  }
  Quantisation random_quantisation() {
    Quantisation q;
    q.zp_in = uniform(-128, 127);
    q.zp_out = uniform(-20, 20);
    // A fused ReLU or clip now and then, wide enough to leave the outputs spread.
    q.lo = uniform(0, 2) == 0 ? uniform(-128, 0) : -128;
    q.hi = uniform(0, 2) == 0 ? uniform(q.lo + 64, 127) : 127;
    return q;
  }

  // Runs both implementations; expects every output byte equal and the outputs not degenerate.
  void expect_same_conv(const kernels::ConvGeometry& g, const std::vector<int8_t>& x,
                        const std::vector<int8_t>& w, const std::vector<int32_t>& bias,
                        const std::vector<int32_t>& rq, const Quantisation& q,
                        bool check_spread = true) {
    const std::string what = describe(g);
    const int64_t terms = int64_t{g.in_c / g.groups} * g.k_h * g.k_w;
    ASSERT_TRUE(kernels::accumulators_fit(terms, bias.data(), g.out_c)) << what;
    ASSERT_TRUE(kernels::valid_requant_table(rq.data(), g.out_c)) << what;
    const size_t n_out = size_t(g.batch) * g.out_c * g.out_h * g.out_w;
    std::vector<int8_t> ref(n_out, 0x55), fast(n_out, 0x2A);
    kernels::conv_q8(g, x.data(), w.data(), bias.data(), rq.data(), q.zp_in, q.zp_out, q.lo, q.hi,
                     ref.data());
    npu_fast::conv_q8(g, x.data(), w.data(), bias.data(), rq.data(), q.zp_in, q.zp_out, q.lo, q.hi,
                      fast.data());
    for (size_t i = 0; i < n_out; ++i) ASSERT_EQ(fast[i], ref[i]) << what << " output " << i;
    if (check_spread) expect_spread(ref, what);
  }

  // Outputs spread over many values unless the layer is tiny: a check
  // that cannot fail is no check.
  static void expect_spread(const std::vector<int8_t>& y, const std::string& what) {
    std::vector<bool> seen(256);
    int distinct = 0;
    for (int8_t v : y) {
      if (!seen[uint8_t(v)]) ++distinct;
      seen[uint8_t(v)] = true;
    }
    const int wanted = std::min<int>(8, static_cast<int>(y.size() / 8) + 1);
    EXPECT_GE(distinct, wanted) << what << ": degenerate test data";
  }

  static std::string describe(const kernels::ConvGeometry& g) {
    return "conv n" + std::to_string(g.batch) + " c" + std::to_string(g.in_c) + " " +
           std::to_string(g.in_h) + "x" + std::to_string(g.in_w) + " -> " +
           std::to_string(g.out_c) + " " + std::to_string(g.out_h) + "x" + std::to_string(g.out_w) +
           " k" + std::to_string(g.k_h) + "x" + std::to_string(g.k_w) + " s" +
           std::to_string(g.stride_h) + "," + std::to_string(g.stride_w) + " p" +
           std::to_string(g.pad_t) + "," + std::to_string(g.pad_l) + " d" +
           std::to_string(g.dil_h) + "," + std::to_string(g.dil_w) + " g" +
           std::to_string(g.groups);
  }

  // A geometry whose output size follows from the padding on both sides (pad_b, pad_r).
  static kernels::ConvGeometry geometry(int32_t n, int32_t cin, int32_t h, int32_t w, int32_t cout,
                                        int32_t kh, int32_t kw, int32_t sh, int32_t sw, int32_t pt,
                                        int32_t pl, int32_t pb, int32_t pr, int32_t dh, int32_t dw,
                                        int32_t groups) {
    const int32_t oh = kernels::window_out_size(h, kh, sh, pt, pb, dh, false);
    const int32_t ow = kernels::window_out_size(w, kw, sw, pl, pr, dw, false);
    return {n, cin, h, w, cout, oh, ow, kh, kw, sh, sw, pt, pl, dh, dw, groups};
  }

  void random_conv(const kernels::ConvGeometry& g) {
    ASSERT_GT(g.out_h, 0);
    ASSERT_GT(g.out_w, 0);
    const int32_t terms = g.in_c / g.groups * g.k_h * g.k_w;
    expect_same_conv(g, random_i8(size_t(g.batch) * g.in_c * g.in_h * g.in_w),
                     random_i8(size_t(g.out_c) * terms), random_bias(size_t(g.out_c)),
                     random_requant(size_t(g.out_c), terms), random_quantisation());
  }
};

TEST_F(FastKernelsTest, ConvNamedShapes) {
  // n, cin, h, w, cout, kh, kw, sh, sw, pt, pl, pb, pr, dh, dw, groups
  const std::vector<kernels::ConvGeometry> cases = {
      geometry(1, 3, 17, 19, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1),    // "same" 3x3
      geometry(1, 3, 23, 23, 10, 7, 7, 2, 2, 3, 3, 3, 3, 1, 1, 1),   // a stem: 7x7, stride 2
      geometry(2, 5, 9, 11, 7, 3, 3, 2, 1, 0, 2, 1, 0, 1, 1, 1),     // batch, asymmetric padding
      geometry(1, 6, 13, 12, 5, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 1),    // dilation 2
      geometry(1, 4, 15, 15, 6, 3, 2, 1, 3, 3, 1, 0, 2, 3, 2, 1),    // mixed dilation, stride 3
      geometry(1, 33, 8, 9, 37, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1),    // pointwise, odd channels
      geometry(1, 70, 7, 7, 65, 1, 1, 2, 2, 0, 0, 0, 0, 1, 1, 1),    // pointwise, stride 2
      geometry(1, 64, 6, 6, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),     // pointwise with padding
      geometry(1, 12, 10, 10, 18, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 3),  // grouped, 3 groups
      geometry(2, 8, 9, 7, 8, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 8),      // depthwise, stride 2
      geometry(1, 5, 11, 13, 10, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 5),   // depthwise, multiplier 2
      geometry(1, 7, 12, 12, 7, 5, 5, 3, 3, 2, 2, 2, 2, 1, 1, 7),    // depthwise 5x5, stride 3
      geometry(1, 6, 14, 14, 6, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 6),    // depthwise, dilation 2
      geometry(1, 4, 40, 37, 4, 3, 3, 2, 2, 1, 1, 0, 1, 1, 1, 4),    // depthwise, many chunks
      geometry(1, 3, 9, 30, 6, 2, 4, 2, 3, 0, 3, 1, 0, 2, 1, 3),     // depthwise, mixed phases
      geometry(2, 32, 9, 9, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 8),    // groups of 4 channels
      geometry(1, 1, 9, 9, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1),      // one input channel
      geometry(1, 3, 1, 40, 4, 1, 5, 1, 1, 0, 2, 0, 2, 1, 1, 1),     // a 1-D row
      geometry(1, 2, 3, 3, 3, 3, 3, 1, 1, 4, 4, 4, 4, 1, 1, 1),      // more padding than input
      geometry(1, 96, 5, 5, 130, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1),   // deep: K = 864
  };
  for (const auto& g : cases) random_conv(g);
}

TEST_F(FastKernelsTest, ConvRandomGeometries) {
  for (int i = 0; i < 150; ++i) {
    const int32_t kind = uniform(0, 3);  // plain, grouped, depthwise, pointwise
    int32_t groups = 1, cin = uniform(1, 40), cout = uniform(1, 40);
    if (kind == 1) {
      groups = uniform(2, 4);
      cin = groups * uniform(2, 9);
      cout = groups * uniform(1, 9);
    } else if (kind == 2) {
      groups = uniform(1, 24);
      cin = groups;
      cout = groups * uniform(1, 2);
    }
    const bool pointwise = kind == 3;
    const int32_t kh = pointwise ? 1 : uniform(1, 5), kw = pointwise ? 1 : uniform(1, 5);
    const int32_t dh = uniform(1, 2), dw = uniform(1, 2);
    const int32_t h = uniform(dh * (kh - 1) + 1, 20), w = uniform(dw * (kw - 1) + 1, 20);
    const int32_t pmax = pointwise ? 0 : 3;
    const kernels::ConvGeometry g = geometry(uniform(1, 2), cin, h, w, cout, kh, kw, uniform(1, 3),
                                             uniform(1, 3), uniform(0, pmax), uniform(0, pmax),
                                             uniform(0, pmax), uniform(0, pmax), dh, dw, groups);
    random_conv(g);
    if (HasFatalFailure()) return;
  }
}

// Many groups of 1-4 channels and depthwise layers on planes of up to 40x40 (several chunks of
// the planar path), strides up to 3 in either direction.
TEST_F(FastKernelsTest, ConvRandomSmallGroupsAndPlanes) {
  for (int i = 0; i < 100; ++i) {
    const int32_t groups = uniform(2, 16), depthwise = uniform(0, 1);
    const int32_t cin = groups * (depthwise != 0 ? 1 : uniform(1, 4));
    const int32_t cout = groups * uniform(1, depthwise != 0 ? 2 : 4);
    const int32_t kh = uniform(1, 5), kw = uniform(1, 5), dh = uniform(1, 2), dw = uniform(1, 2);
    const int32_t h = uniform(dh * (kh - 1) + 4, 40), w = uniform(dw * (kw - 1) + 4, 40);
    const kernels::ConvGeometry g =
        geometry(uniform(1, 2), cin, h, w, cout, kh, kw, uniform(1, 3), uniform(1, 3),
                 uniform(0, 3), uniform(0, 3), uniform(0, 3), uniform(0, 3), dh, dw, groups);
    random_conv(g);
    if (HasFatalFailure()) return;
  }
}

// uint8 activations (a model's integer input): x - zp_in is the same as for the int8 input
// x - 128 with zero point zp_in - 128, which the reference loops compute.
TEST_F(FastKernelsTest, ConvUint8Input) {
  const std::vector<kernels::ConvGeometry> cases = {
      geometry(1, 3, 20, 18, 8, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1),
      geometry(1, 3, 9, 9, 6, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1),
      geometry(1, 4, 11, 10, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 4)};
  for (const auto& g : cases) {
    const int32_t terms = g.in_c / g.groups * g.k_h * g.k_w;
    const std::vector<int8_t> x = random_i8(size_t(g.in_c) * g.in_h * g.in_w);
    const std::vector<int8_t> w = random_i8(size_t(g.out_c) * terms);
    const std::vector<int32_t> bias = random_bias(size_t(g.out_c));
    const std::vector<int32_t> rq = random_requant(size_t(g.out_c), terms);
    const Quantisation q = random_quantisation();
    std::vector<uint8_t> u(x.size());
    for (size_t i = 0; i < x.size(); ++i) u[i] = static_cast<uint8_t>(x[i] + 128);
    const size_t n_out = size_t(g.out_c) * g.out_h * g.out_w;
    std::vector<int8_t> ref(n_out, 0x55), fast(n_out, 0x2A);
    kernels::conv_q8(g, x.data(), w.data(), bias.data(), rq.data(), q.zp_in, q.zp_out, q.lo, q.hi,
                     ref.data());
    npu_fast::conv_q8(g, u.data(), w.data(), bias.data(), rq.data(), q.zp_in + 128, q.zp_out, q.lo,
                      q.hi, fast.data());
    for (size_t i = 0; i < n_out; ++i) ASSERT_EQ(fast[i], ref[i]) << describe(g) << " output " << i;
    expect_spread(ref, describe(g));
  }
}

// The largest terms: (127 - (-128)) * -128 in every product, with the deepest kernel whose
// accumulator still fits once the bias is added.
TEST_F(FastKernelsTest, ConvExtremeOperands) {
  const kernels::ConvGeometry g = geometry(1, 512, 5, 5, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1);
  const int32_t terms = 512 * 9;
  std::vector<int8_t> x(size_t(512) * 25, 127), w(size_t(6) * terms, -128);
  std::vector<int32_t> bias = {-2000000, 2000000, 0, 1, -1, 12345};
  std::vector<int32_t> rq;
  for (int c = 0; c < 6; ++c) rq.insert(rq.end(), {0x7FFFFFFF, 31 + 20 + c});
  Quantisation q;
  q.zp_in = -128;
  expect_same_conv(g, x, w, bias, rq, q, false);
  // and the other sign, with the smallest input
  std::fill(x.begin(), x.end(), -128);
  q.zp_in = 127;
  expect_same_conv(g, x, w, bias, rq, q, false);
}

TEST_F(FastKernelsTest, FullyConnectedOddSizes) {
  // rows, in, out: a vector, tiles of rows with remainders, widths off the vector length
  const std::vector<std::vector<uint32_t>> cases = {
      {1, 1, 1}, {1, 7, 5}, {1, 2048, 1000}, {3, 33, 17}, {64, 64, 3}, {65, 130, 9}, {130, 5, 66}};
  for (const auto& c : cases) {
    const uint32_t rows = c[0], in = c[1], out = c[2];
    const std::vector<int8_t> x = random_i8(size_t(rows) * in), w = random_i8(size_t(out) * in);
    const std::vector<int32_t> bias = random_bias(out), rq = random_requant(out, in);
    const Quantisation q = random_quantisation();
    std::vector<int8_t> ref(size_t(rows) * out, 0x55), fast(size_t(rows) * out, 0x2A);
    kernels::fully_connected_i8(rows, in, out, x.data(), w.data(), bias.data(), rq.data(), q.zp_in,
                                q.zp_out, q.lo, q.hi, ref.data());
    npu_fast::fully_connected_i8(rows, in, out, x.data(), w.data(), bias.data(), rq.data(), q.zp_in,
                                 q.zp_out, q.lo, q.hi, fast.data());
    const std::string what =
        "fc " + std::to_string(rows) + "x" + std::to_string(in) + "->" + std::to_string(out);
    for (size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(fast[i], ref[i]) << what << " output " << i;
    expect_spread(ref, what);
  }
}

}  // namespace
}  // namespace socsim
