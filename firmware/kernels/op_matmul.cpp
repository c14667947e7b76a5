// Matrix product of two activations: aten::matmul.out (float32) and
// quantized_decomposed::matmul.out (int8). a [..., M, K] times b [..., K, N] gives
// [..., M, N]; the batch axes (all but the last two) broadcast as numpy's matmul does: an
// operand of lower rank gets leading axes of size 1, and an axis of size 1 repeats.
//
// int8: y = clamp(requantize(sum_k (a - zp_a)(b - zp_b), m, n) + zp_out, lo, hi), the sum in
// int32 (K <= 33025 keeps K * 255 * 255 below 2^31).
#include "firmware/int8/matmul_loops.h"
#include "firmware/kernels/kernel_util.h"
#include "firmware/kernels/strided.h"

namespace socsim::kernels {
namespace {

/// The shape of a product: M, K, N and the walks of a's and b's matrices over the output's
/// batch axes (offsets in elements).
struct Product {
  int32_t m = 0, k = 0, n = 0;
  uint32_t batches = 1;
  StridedWalk a_walk, b_walk;

  Error init(const Tensor& a, const Tensor& b, const Tensor& y) {
    if (a.rank < 2 || b.rank < 2 || y.rank < 2 || y.rank > kMaxWalkRank + 2) {
      return Error::kShapeMismatch;
    }
    if (a.rank > y.rank || b.rank > y.rank) return Error::kShapeMismatch;
    m = a.sizes[a.rank - 2];
    k = a.sizes[a.rank - 1];
    n = b.sizes[b.rank - 1];
    if (b.sizes[b.rank - 2] != k || y.sizes[y.rank - 2] != m || y.sizes[y.rank - 1] != n || m < 1 ||
        k < 1 || n < 1) {
      return Error::kShapeMismatch;
    }
    const uint32_t batch_rank = y.rank - 2;
    int64_t a_stride = int64_t{m} * k;
    int64_t b_stride = int64_t{k} * n;
    int32_t a_strides[kMaxWalkRank] = {};
    int32_t b_strides[kMaxWalkRank] = {};
    // From the innermost batch axis out; an operand's missing axes have size 1.
    for (int32_t d = static_cast<int32_t>(batch_rank) - 1; d >= 0; --d) {
      const int32_t out = y.sizes[d];
      const int32_t ad = d - static_cast<int32_t>(y.rank - a.rank);
      const int32_t bd = d - static_cast<int32_t>(y.rank - b.rank);
      const int32_t as = ad >= 0 ? a.sizes[ad] : 1;
      const int32_t bs = bd >= 0 ? b.sizes[bd] : 1;
      if ((as != out && as != 1) || (bs != out && bs != 1) || out < 1) {
        return Error::kShapeMismatch;
      }
      a_strides[d] = as == 1 ? 0 : static_cast<int32_t>(a_stride);
      b_strides[d] = bs == 1 ? 0 : static_cast<int32_t>(b_stride);
      a_stride *= as;
      b_stride *= bs;
      batches *= static_cast<uint32_t>(out);
    }
    for (uint32_t d = 0; d < batch_rank; ++d) {
      a_walk.add_axis(y.sizes[d], a_strides[d]);
      b_walk.add_axis(y.sizes[d], b_strides[d]);
    }
    a_walk.reset(0);
    b_walk.reset(0);
    return Error::kOk;
  }

  /// f(a's matrix, b's matrix, y's matrix) for every batch, offsets in elements.
  template <typename F>
  void each(F f) {
    const uint32_t y_matrix = static_cast<uint32_t>(m) * static_cast<uint32_t>(n);
    for (uint32_t i = 0; i < batches; ++i) {
      f(static_cast<uint32_t>(a_walk.offset), static_cast<uint32_t>(b_walk.offset), i * y_matrix);
      a_walk.next();
      b_walk.next();
    }
  }
};

/// The float32 products of every batch: y[r][c] = sum_j a[r][j] b[j][c].
void multiply_f32(const Tensor& a, const Tensor& b, Tensor& y, Product& p) {
  const float* pa = a.data_as<float>();
  const float* pb = b.data_as<float>();
  float* py = y.data_as<float>();
  const int32_t rows = p.m, depth = p.k, cols = p.n;
  p.each([&](uint32_t ia, uint32_t ib, uint32_t iy) {
    for (int32_t r = 0; r < rows; ++r) {
      const float* ar = pa + ia + r * depth;
      float* yr = py + iy + r * cols;
      for (int32_t c = 0; c < cols; ++c) {
        const float* bc = pb + ib + c;
        float acc = 0;
        for (int32_t j = 0; j < depth; ++j) acc += ar[j] * bc[j * cols];
        yr[c] = acc;
      }
    }
  });
}

Error matmul_f32(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator*) {
  Product p;
  SOCSIM_RT_TRY(p.init(a, b, out));
  multiply_f32(a, b, out, p);
  return Error::kOk;
}

Error quantized_matmul_i8(const Tensor& a, const Tensor& b, Tensor& out,
                          ops::QuantizedMatmul::Args args, MemoryAllocator*) {
  Product p;
  SOCSIM_RT_TRY(p.init(a, b, out));
  const MatmulScale s{args.zp_a(),   args.zp_b(),    args.m(),      args.n(),
                      args.zp_out(), args.act_min(), args.act_max()};
  if (!s.valid()) return Error::kBadOperatorArgs;
  if (p.k > kMaxMatmulDepth) return Error::kShapeMismatch;
  const int8_t* pa = a.data_as<int8_t>();
  const int8_t* pb = b.data_as<int8_t>();
  int8_t* py = out.data_as<int8_t>();
  p.each([&](uint32_t ia, uint32_t ib, uint32_t iy) {
    matmul_i8(pa + ia, pb + ib, p.m, p.k, p.n, s, py + iy);
  });
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::Matmul, matmul_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedMatmul, quantized_matmul_i8, kInt8);

}  // namespace socsim::kernels
