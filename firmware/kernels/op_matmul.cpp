// Matrix product of two activations: aten::matmul.out (float32) and
// quantized_decomposed::matmul.out (int8). a [..., M, K] times b [..., K, N] gives
// [..., M, N]; the batch axes (all but the last two) broadcast as numpy's matmul does: an
// operand of lower rank gets leading axes of size 1, and an axis of size 1 repeats.
//
// int8: y = clamp(requantize(sum_k (a - zp_a)(b - zp_b), m, n) + zp_out, lo, hi), the sum in
// int32 (K <= 33025 keeps K * 255 * 255 below 2^31).
#include "firmware/kernels/kernel_util.h"
#include "firmware/kernels/strided.h"

namespace socsim::kernels {
namespace {

constexpr int32_t kMaxDepth = 33025;

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

template <typename Op>
Error operands(const KernelArgs& k, ScalarType type, Product* p) {
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const Tensor& a = *k.inputs[Op::kA];
  const Tensor& b = *k.inputs[Op::kB];
  const Tensor& y = *k.outputs[Op::kOut];
  if (!same_dtype(a, type) || !same_dtype(b, type) || !same_dtype(y, type)) {
    return Error::kDtypeMismatch;
  }
  return p->init(a, b, y);
}

/// The products of every batch: y[r][c] = finish(sum_j term(a[r][j], b[j][c])), the sum in Acc.
template <typename T, typename Acc, typename Term, typename Finish>
void multiply(const KernelArgs& k, Product& p, Term term, Finish finish) {
  // Every product operator names its operands a, b and out (operator schema).
  const T* pa = k.inputs[ops::Matmul::kA]->data_as<T>();
  const T* pb = k.inputs[ops::Matmul::kB]->data_as<T>();
  T* py = k.outputs[ops::Matmul::kOut]->data_as<T>();
  const int32_t rows = p.m, depth = p.k, cols = p.n;
  p.each([&](uint32_t ia, uint32_t ib, uint32_t iy) {
    for (int32_t r = 0; r < rows; ++r) {
      const T* ar = pa + ia + r * depth;
      T* yr = py + iy + r * cols;
      for (int32_t c = 0; c < cols; ++c) {
        const T* bc = pb + ib + c;
        Acc acc = 0;
        for (int32_t j = 0; j < depth; ++j) acc += term(ar[j], bc[j * cols]);
        yr[c] = finish(acc);
      }
    }
  });
}

Error matmul_f32(const KernelArgs& k) {
  Product p;
  SOCSIM_RT_TRY(operands<ops::Matmul>(k, ScalarType::kFloat32, &p));
  multiply<float, float>(
      k, p, [](float a, float b) { return a * b; }, [](float acc) { return acc; });
  return Error::kOk;
}

Error quantized_matmul_i8(const KernelArgs& k) {
  using Op = ops::QuantizedMatmul;
  static_assert(Op::kA == ops::Matmul::kA && Op::kB == ops::Matmul::kB, "operand order");
  Product p;
  SOCSIM_RT_TRY(operands<Op>(k, ScalarType::kInt8, &p));
  const Op::Args args(k.args);
  const int32_t zp_a = args.zp_a(), zp_b = args.zp_b(), m = args.m(), n = args.n();
  const int32_t zp_out = args.zp_out(), lo = args.act_min(), hi = args.act_max();
  if (!valid_multiplier(m, n) || !valid_zero_point(zp_a) || !valid_zero_point(zp_b) ||
      !valid_zero_point(zp_out) || !valid_bounds(lo, hi)) {
    return Error::kBadOperatorArgs;
  }
  if (p.k > kMaxDepth) return Error::kShapeMismatch;
  multiply<int8_t, int32_t>(
      k, p, [=](int8_t a, int8_t b) { return (a - zp_a) * (b - zp_b); },
      [=](int32_t acc) { return clamp_to_i8(requantize(acc, m, n) + zp_out, lo, hi); });
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Matmul, kFloat32, matmul_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedMatmul, kInt8, quantized_matmul_i8);

}  // namespace socsim::kernels
