// ExecuTorch operators mapped onto the kernel registry (pte_ops.h).
//
// Each operator's preparation reads its ExecuTorch argument list (the order of the
// operator's schema in PyTorch's native_functions.yaml and ExecuTorch's quantized ops),
// checks every argument's kind and element type, and turns it into the argument words of a
// kernel of the registry (docs/runtime.md lists those). What a kernel checks at run time
// (shapes against each other) it still checks; what only the ExecuTorch form has (alpha,
// transposed convolution, dilation of pooling, quant_min/quant_max) is checked here.
#include "firmware/runtime/pte_ops.h"

#include <math.h>
#include <string.h>

#include "firmware/abi/generated/operators.h"

namespace socsim::runtime {

int64_t PteList::int_at(uint32_t i) const {
  int64_t v;
  memcpy(&v, data + 8 * i, 8);
  return v;
}
double PteList::double_at(uint32_t i) const {
  double v;
  memcpy(&v, data + 8 * i, 8);
  return v;
}
bool PteList::bool_at(uint32_t i) const {
  return data[i] != 0;
}
int32_t PteList::index_at(uint32_t i) const {
  int32_t v;
  memcpy(&v, data + 4 * i, 4);
  return v;
}

namespace {

constexpr float kInf = __builtin_inff();

/// The arguments of one call, with checked accessors that name the failing argument.
class Args {
 public:
  Args(const PteOpContext& ctx, const uint32_t* args, uint32_t count)
      : ctx_(ctx), args_(args), count_(count) {}
  uint32_t count() const { return count_; }
  const PteValue& value(uint32_t i) const { return ctx_.values[args_[i]]; }

  Error fail(Error e, const char* field, uint32_t i) const {
    return pte_fail(ctx_.diag, e, field, args_ != nullptr && i < count_ ? args_[i] : i);
  }
  Error tensor(uint32_t i, Tensor** t, int8_t* type) const {
    if (value(i).kind != PteValueKind::kTensor) {
      return fail(Error::kBadOperatorArgs, "operator argument (a tensor expected)", i);
    }
    *t = value(i).tensor;
    *type = value(i).dtype;
    return Error::kOk;
  }
  Error integer(uint32_t i, int64_t* v) const {
    if (value(i).kind != PteValueKind::kInt) {
      return fail(Error::kBadOperatorArgs, "operator argument (an Int expected)", i);
    }
    *v = value(i).i;
    return Error::kOk;
  }
  Error boolean(uint32_t i, bool* v) const {
    if (value(i).kind != PteValueKind::kBool) {
      return fail(Error::kBadOperatorArgs, "operator argument (a Bool expected)", i);
    }
    *v = value(i).i != 0;
    return Error::kOk;
  }
  Error real(uint32_t i, double* v) const {  // a Scalar or float: Double or Int
    if (value(i).kind == PteValueKind::kDouble) {
      *v = value(i).d;
    } else if (value(i).kind == PteValueKind::kInt) {
      *v = static_cast<double>(value(i).i);
    } else {
      return fail(Error::kBadOperatorArgs, "operator argument (a Scalar expected)", i);
    }
    return Error::kOk;
  }
  Error int_list(uint32_t i, PteList* list) const {
    if (value(i).kind != PteValueKind::kIntList) {
      return fail(Error::kBadOperatorArgs, "operator argument (an IntList expected)", i);
    }
    *list = value(i).list;
    return Error::kOk;
  }
  bool is_null(uint32_t i) const { return value(i).kind == PteValueKind::kNull; }

 private:
  const PteOpContext& ctx_;
  const uint32_t* args_;
  uint32_t count_;
};

bool runtime_readable(int8_t type) {
  switch (static_cast<PteScalarType>(type)) {
    case PteScalarType::kFloat:
    case PteScalarType::kChar:
    case PteScalarType::kInt:
    case PteScalarType::kByte:
      return true;
    default:
      return false;
  }
}

/// Prepares kernel call `slot` of `call`: kernel `Op` for the first input's dtype, operands
/// and argument words copied into the method allocator.
template <typename Op>
Error bind(const PteOpContext& ctx, PteOpCall* call, uint32_t slot, Tensor* const* inputs,
           uint32_t input_count, Tensor* const* outputs, uint32_t output_count,
           const int32_t* words, uint32_t word_count) {
  MemoryAllocator& alloc = *ctx.allocator;
  Tensor** operands = alloc.allocate_array<Tensor*>(input_count + output_count);
  int32_t* args = alloc.allocate_array<int32_t>(word_count);
  if (operands == nullptr || (args == nullptr && word_count > 0)) {
    return Error::kMemoryAllocationFailed;
  }
  for (uint32_t i = 0; i < input_count; ++i) operands[i] = inputs[i];
  for (uint32_t i = 0; i < output_count; ++i) operands[input_count + i] = outputs[i];
  for (uint32_t i = 0; i < word_count; ++i) args[i] = words[i];
  const ScalarType dtype = input_count > 0 ? inputs[0]->dtype : outputs[0]->dtype;
  const Kernel* kernel = find_kernel(Op::kName, Op::kNameLength, dtype);
  if (kernel == nullptr) return Error::kOperatorMissing;
  call->fn[slot] = kernel->fn;
  KernelArgs& k = call->args[slot];
  k.inputs = operands;
  k.input_count = input_count;
  k.outputs = operands + input_count;
  k.output_count = output_count;
  k.args = args;
  k.arg_count = word_count;
  k.temp = ctx.temp;
  return Error::kOk;
}

Error run_one(const PteOpCall& c) {
  return c.fn[0](c.args[0]);
}

Error run_two(const PteOpCall& c) {
  SOCSIM_RT_TRY(c.fn[0](c.args[0]));
  return c.fn[1](c.args[1]);
}

int32_t float_word(float f) {
  int32_t w;
  memcpy(&w, &f, 4);
  return w;
}

/// Normalises axis `d` of a rank-`rank` tensor (negative counts from the end).
bool axis_of(int64_t d, uint32_t rank, uint32_t* axis) {
  const int64_t r = rank == 0 ? 1 : rank;
  if (d < -r || d >= r) return false;
  *axis = static_cast<uint32_t>(d < 0 ? d + r : d);
  return true;
}

/// An [h, w] pair from a list of 1 or 2 entries (1: both), each in [lo, 2^16]; `empty`
/// when the list is empty and `empty` is given.
bool pair_of(const PteList& list, int64_t lo, const int32_t* empty, int32_t out[2]) {
  if (list.count == 0 && empty != nullptr) {
    out[0] = empty[0];
    out[1] = empty[1];
    return true;
  }
  if (list.count != 1 && list.count != 2) return false;
  for (uint32_t i = 0; i < 2; ++i) {
    const int64_t v = list.int_at(list.count == 1 ? 0 : i);
    if (v < lo || v > 65536) return false;
    out[i] = static_cast<int32_t>(v);
  }
  return true;
}

/// Same ExecuTorch type for every tensor of an elementwise operator, and one the kernels read.
bool same_types(const int8_t* types, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    if (types[i] != types[0] || !runtime_readable(types[i])) return false;
  }
  return true;
}

// ---- aten::add.out(self, other, *, alpha, out) ---------------------------------------------

Error prepare_add(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 4) return a.fail(Error::kBadOperatorArgs, "aten::add.out argument count", 0);
  Tensor* t[3];
  int8_t types[3];
  double alpha = 0;
  SOCSIM_RT_TRY(a.tensor(0, &t[0], &types[0]));
  SOCSIM_RT_TRY(a.tensor(1, &t[1], &types[1]));
  SOCSIM_RT_TRY(a.real(2, &alpha));
  SOCSIM_RT_TRY(a.tensor(3, &t[2], &types[2]));
  if (alpha != 1.0) return a.fail(Error::kNotSupported, "aten::add.out alpha (only 1)", 2);
  if (!same_types(types, 3)) return a.fail(Error::kDtypeMismatch, "aten::add.out dtypes", 3);
  call->run = run_one;
  return bind<ops::Add>(ctx, call, 0, t, 2, &t[2], 1, nullptr, 0);
}

// ---- aten::relu.out(self, *, out) -----------------------------------------------------------

Error prepare_relu(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 2) return a.fail(Error::kBadOperatorArgs, "aten::relu.out argument count", 0);
  Tensor* t[2];
  int8_t types[2];
  SOCSIM_RT_TRY(a.tensor(0, &t[0], &types[0]));
  SOCSIM_RT_TRY(a.tensor(1, &t[1], &types[1]));
  if (!same_types(types, 2)) return a.fail(Error::kDtypeMismatch, "aten::relu.out dtypes", 1);
  call->run = run_one;
  return bind<ops::Relu>(ctx, call, 0, t, 1, &t[1], 1, nullptr, 0);
}

// ---- aten::convolution.out(input, weight, bias?, stride, padding, dilation, transposed,
//      output_padding, groups, *, out) ------------------------------------------------------

Error prepare_convolution(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 10) {
    return a.fail(Error::kBadOperatorArgs, "aten::convolution.out argument count", 0);
  }
  Tensor* in[3] = {nullptr, nullptr, nullptr};
  Tensor* out = nullptr;
  int8_t types[4] = {};
  SOCSIM_RT_TRY(a.tensor(0, &in[0], &types[0]));
  SOCSIM_RT_TRY(a.tensor(1, &in[1], &types[1]));
  SOCSIM_RT_TRY(a.tensor(9, &out, &types[3]));
  types[2] = types[0];
  if (!a.is_null(2)) SOCSIM_RT_TRY(a.tensor(2, &in[2], &types[2]));
  if (!same_types(types, 4) || types[0] != static_cast<int8_t>(PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "aten::convolution.out dtypes (float32)", 0);
  }
  if (in[1]->rank != 4) {
    return a.fail(Error::kNotSupported, "aten::convolution.out weight (2-D only)", 1);
  }
  PteList stride, padding, dilation, output_padding;
  bool transposed = false;
  int64_t groups = 0;
  SOCSIM_RT_TRY(a.int_list(3, &stride));
  SOCSIM_RT_TRY(a.int_list(4, &padding));
  SOCSIM_RT_TRY(a.int_list(5, &dilation));
  SOCSIM_RT_TRY(a.boolean(6, &transposed));
  SOCSIM_RT_TRY(a.int_list(7, &output_padding));
  SOCSIM_RT_TRY(a.integer(8, &groups));
  if (transposed) {
    return a.fail(Error::kNotSupported, "aten::convolution.out transposed", 6);
  }
  int32_t s[2], p[2], d[2];
  if (!pair_of(stride, 1, nullptr, s)) {
    return a.fail(Error::kBadOperatorArgs, "aten::convolution.out stride", 3);
  }
  if (!pair_of(padding, 0, nullptr, p)) {
    return a.fail(Error::kBadOperatorArgs, "aten::convolution.out padding", 4);
  }
  if (!pair_of(dilation, 1, nullptr, d)) {
    return a.fail(Error::kBadOperatorArgs, "aten::convolution.out dilation", 5);
  }
  if (groups < 1 || groups > 65536) {
    return a.fail(Error::kBadOperatorArgs, "aten::convolution.out groups", 8);
  }
  if (in[2] == nullptr) {
    // No bias: zeros (the kernel adds a bias per output channel).
    const int32_t channels = in[1]->sizes[0];
    Tensor* zeros = ctx.allocator->allocate_array<Tensor>(1);
    float* data = ctx.allocator->allocate_array<float>(static_cast<uint32_t>(channels));
    if (zeros == nullptr || (data == nullptr && channels > 0))
      return Error::kMemoryAllocationFailed;
    zeros->dtype = ScalarType::kFloat32;
    zeros->rank = 1;
    zeros->sizes[0] = channels;
    zeros->data = data;
    zeros->nbytes = static_cast<uint32_t>(channels) * 4;
    in[2] = zeros;
  }
  const int32_t words[ops::Convolution::kArgs] = {s[0],
                                                  s[1],
                                                  p[0],
                                                  p[1],
                                                  p[0],
                                                  p[1],
                                                  d[0],
                                                  d[1],
                                                  static_cast<int32_t>(groups),
                                                  float_word(-kInf),
                                                  float_word(kInf)};
  call->run = run_one;
  return bind<ops::Convolution>(ctx, call, 0, in, 3, &out, 1, words, ops::Convolution::kArgs);
}

// ---- aten::max_pool2d_with_indices.out(self, kernel_size, stride, padding, dilation,
//      ceil_mode, *, out, indices) --------------------------------------------------------

/// The values come from the max pooling kernel; the indices (int64, the flat position h*W+w
/// of each window's first maximum in its input plane) are computed here.
Error run_max_pool_with_indices(const PteOpCall& c) {
  SOCSIM_RT_TRY(c.fn[0](c.args[0]));
  const Tensor& x = *c.extra[0];
  const Tensor& y = *c.extra[1];
  const Tensor& idx = *c.extra[2];
  const int32_t kh = c.params[0], kw = c.params[1], sh = c.params[2], sw = c.params[3];
  const int32_t ph = c.params[4], pw = c.params[5];
  const int32_t planes = x.sizes[0] * x.sizes[1];
  const int32_t h = x.sizes[2], w = x.sizes[3], oh = y.sizes[2], ow = y.sizes[3];
  const float* px = x.data_as<float>();
  int64_t* pi = static_cast<int64_t*>(idx.data);
  for (int32_t plane = 0; plane < planes; ++plane) {
    const float* in = px + static_cast<int64_t>(plane) * h * w;
    for (int32_t oy = 0; oy < oh; ++oy) {
      for (int32_t ox = 0; ox < ow; ++ox) {
        int64_t best = -1;
        float best_value = 0.0f;
        for (int32_t ky = 0; ky < kh; ++ky) {
          const int32_t iy = oy * sh - ph + ky;
          if (iy < 0 || iy >= h) continue;
          for (int32_t kx = 0; kx < kw; ++kx) {
            const int32_t ix = ox * sw - pw + kx;
            if (ix < 0 || ix >= w) continue;
            const float v = in[iy * w + ix];
            if (best < 0 || v > best_value || (v != v && best_value == best_value)) {
              best = static_cast<int64_t>(iy) * w + ix;
              best_value = v;
            }
          }
        }
        int64_t value = best < 0 ? 0 : best;
        memcpy(pi++, &value, sizeof(value));
      }
    }
  }
  return Error::kOk;
}

Error prepare_max_pool_with_indices(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 8) {
    return a.fail(Error::kBadOperatorArgs, "aten::max_pool2d_with_indices.out argument count", 0);
  }
  Tensor *x = nullptr, *y = nullptr, *idx = nullptr;
  int8_t tx = 0, ty = 0, ti = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(a.tensor(6, &y, &ty));
  SOCSIM_RT_TRY(a.tensor(7, &idx, &ti));
  if (tx != static_cast<int8_t>(PteScalarType::kFloat) || ty != tx ||
      ti != static_cast<int8_t>(PteScalarType::kLong)) {
    return a.fail(Error::kDtypeMismatch,
                  "aten::max_pool2d_with_indices.out dtypes (float32, indices int64)", 0);
  }
  PteList kernel, stride, padding, dilation;
  bool ceil_mode = false;
  SOCSIM_RT_TRY(a.int_list(1, &kernel));
  SOCSIM_RT_TRY(a.int_list(2, &stride));
  SOCSIM_RT_TRY(a.int_list(3, &padding));
  SOCSIM_RT_TRY(a.int_list(4, &dilation));
  SOCSIM_RT_TRY(a.boolean(5, &ceil_mode));
  int32_t k[2], s[2], p[2], d[2];
  const int32_t ones[2] = {1, 1};
  if (!pair_of(kernel, 1, nullptr, k)) {
    return a.fail(Error::kBadOperatorArgs, "max_pool2d_with_indices kernel_size", 1);
  }
  if (!pair_of(stride, 1, k, s)) {
    return a.fail(Error::kBadOperatorArgs, "max_pool2d_with_indices stride", 2);
  }
  if (!pair_of(padding, 0, nullptr, p) || p[0] * 2 > k[0] || p[1] * 2 > k[1]) {
    return a.fail(Error::kBadOperatorArgs, "max_pool2d_with_indices padding", 3);
  }
  if (!pair_of(dilation, 1, ones, d) || d[0] != 1 || d[1] != 1) {
    return a.fail(Error::kNotSupported, "max_pool2d_with_indices dilation (only 1)", 4);
  }
  if (x->rank != 4 || y->rank != 4 || !idx->same_shape(*y) || y->sizes[0] != x->sizes[0] ||
      y->sizes[1] != x->sizes[1]) {
    return a.fail(Error::kShapeMismatch, "max_pool2d_with_indices shapes (NCHW)", 6);
  }
  const int32_t words[ops::MaxPool2d::kArgs] = {
      k[0], k[1], s[0], s[1], p[0], p[1], p[0], p[1], ceil_mode ? 1 : 0};
  call->run = run_max_pool_with_indices;
  call->extra[0] = x;
  call->extra[1] = y;
  call->extra[2] = idx;
  call->params[0] = k[0];
  call->params[1] = k[1];
  call->params[2] = s[0];
  call->params[3] = s[1];
  call->params[4] = p[0];
  call->params[5] = p[1];
  return bind<ops::MaxPool2d>(ctx, call, 0, &x, 1, &y, 1, words, ops::MaxPool2d::kArgs);
}

// ---- aten::mean.out(self, dim?, keepdim, *, dtype?, out) ------------------------------------

Error prepare_mean(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 5) return a.fail(Error::kBadOperatorArgs, "aten::mean.out argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t types[2];
  bool keepdim = false;
  SOCSIM_RT_TRY(a.tensor(0, &x, &types[0]));
  SOCSIM_RT_TRY(a.boolean(2, &keepdim));
  SOCSIM_RT_TRY(a.tensor(4, &y, &types[1]));
  if (!same_types(types, 2) || types[0] != static_cast<int8_t>(PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "aten::mean.out dtypes (float32)", 0);
  }
  if (!a.is_null(3)) {
    int64_t dtype = 0;
    SOCSIM_RT_TRY(a.integer(3, &dtype));
    if (dtype != static_cast<int64_t>(PteScalarType::kFloat)) {
      return a.fail(Error::kNotSupported, "aten::mean.out dtype", 3);
    }
  }
  int32_t reduce[kMaxRank] = {};
  if (a.is_null(1)) {
    for (uint32_t d = 0; d < x->rank; ++d) reduce[d] = 1;
  } else {
    PteList dims;
    SOCSIM_RT_TRY(a.int_list(1, &dims));
    if (dims.count == 0) {
      for (uint32_t d = 0; d < x->rank; ++d) reduce[d] = 1;
    }
    for (uint32_t i = 0; i < dims.count; ++i) {
      uint32_t axis = 0;
      if (!axis_of(dims.int_at(i), x->rank, &axis) || axis >= x->rank || reduce[axis] != 0) {
        return a.fail(Error::kBadOperatorArgs, "aten::mean.out dim", 1);
      }
      reduce[axis] = 1;
    }
  }
  // The kernel tells keepdim from the output's rank; the flag must agree with it.
  if (keepdim != (y->rank == x->rank) && x->rank > 0) {
    return a.fail(Error::kShapeMismatch, "aten::mean.out keepdim", 2);
  }
  call->run = run_one;
  return bind<ops::Mean>(ctx, call, 0, &x, 1, &y, 1, reduce, x->rank);
}

// ---- aten::permute_copy.out(self, dims, *, out) ---------------------------------------------

Error prepare_permute(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 3) {
    return a.fail(Error::kBadOperatorArgs, "aten::permute_copy.out argument count", 0);
  }
  Tensor *x = nullptr, *y = nullptr;
  int8_t types[2];
  PteList dims;
  SOCSIM_RT_TRY(a.tensor(0, &x, &types[0]));
  SOCSIM_RT_TRY(a.int_list(1, &dims));
  SOCSIM_RT_TRY(a.tensor(2, &y, &types[1]));
  if (!same_types(types, 2)) return a.fail(Error::kDtypeMismatch, "permute_copy dtypes", 0);
  if (dims.count != x->rank) return a.fail(Error::kBadOperatorArgs, "permute_copy dims", 1);
  int32_t perm[kMaxRank] = {};
  for (uint32_t i = 0; i < dims.count; ++i) {
    uint32_t axis = 0;
    if (!axis_of(dims.int_at(i), x->rank, &axis)) {
      return a.fail(Error::kBadOperatorArgs, "permute_copy dims", 1);
    }
    perm[i] = static_cast<int32_t>(axis);
  }
  call->run = run_one;
  return bind<ops::PermuteCopy>(ctx, call, 0, &x, 1, &y, 1, perm, x->rank);
}

// ---- aten::view_copy.out(self, size, *, out) ------------------------------------------------

Error prepare_view(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 3)
    return a.fail(Error::kBadOperatorArgs, "aten::view_copy.out argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t types[2];
  PteList size;
  SOCSIM_RT_TRY(a.tensor(0, &x, &types[0]));
  SOCSIM_RT_TRY(a.int_list(1, &size));
  SOCSIM_RT_TRY(a.tensor(2, &y, &types[1]));
  if (!same_types(types, 2)) return a.fail(Error::kDtypeMismatch, "view_copy dtypes", 0);
  // `size` is the output's shape, with at most one -1 (inferred).
  if (size.count != y->rank || x->numel() != y->numel()) {
    return a.fail(Error::kShapeMismatch, "aten::view_copy.out size", 1);
  }
  uint32_t inferred = 0;
  for (uint32_t i = 0; i < size.count; ++i) {
    const int64_t n = size.int_at(i);
    if (n == -1 && ++inferred == 1) continue;
    if (n != y->sizes[i]) return a.fail(Error::kShapeMismatch, "aten::view_copy.out size", 1);
  }
  call->run = run_one;
  return bind<ops::ViewCopy>(ctx, call, 0, &x, 1, &y, 1, nullptr, 0);
}

// ---- aten::addmm.out(self, mat1, mat2, *, beta, alpha, out) ---------------------------------

Error prepare_addmm(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 6) return a.fail(Error::kBadOperatorArgs, "aten::addmm.out argument count", 0);
  Tensor* t[4];
  int8_t types[4];
  double beta = 0, alpha = 0;
  SOCSIM_RT_TRY(a.tensor(0, &t[0], &types[0]));
  SOCSIM_RT_TRY(a.tensor(1, &t[1], &types[1]));
  SOCSIM_RT_TRY(a.tensor(2, &t[2], &types[2]));
  SOCSIM_RT_TRY(a.real(3, &beta));
  SOCSIM_RT_TRY(a.real(4, &alpha));
  SOCSIM_RT_TRY(a.tensor(5, &t[3], &types[3]));
  if (!same_types(types, 4) || types[0] != static_cast<int8_t>(PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "aten::addmm.out dtypes (float32)", 0);
  }
  if (beta != 1.0 || alpha != 1.0) {
    return a.fail(Error::kNotSupported, "aten::addmm.out beta/alpha (only 1)", 3);
  }
  if (t[1]->rank != 2 || t[2]->rank != 2 || t[3]->rank != 2) {
    return a.fail(Error::kShapeMismatch, "aten::addmm.out (2-D matrices)", 1);
  }
  // out = mat1 @ mat2 (the matmul kernel), then out += self (the add kernel, broadcasting).
  Tensor* product_in[2] = {t[1], t[2]};
  Tensor* sum_in[2] = {t[3], t[0]};
  call->run = run_two;
  SOCSIM_RT_TRY(bind<ops::Matmul>(ctx, call, 0, product_in, 2, &t[3], 1, nullptr, 0));
  return bind<ops::Add>(ctx, call, 1, sum_in, 2, &t[3], 1, nullptr, 0);
}

// ---- quantized_decomposed::quantize_per_tensor.out(input, scale, zero_point, quant_min,
//      quant_max, dtype, *, out) and dequantize_per_tensor.out(..., dtype, *, out_dtype?,
//      out) --------------------------------------------------------------------------------

/// scale (Double), zero_point, quant_min, quant_max, dtype (Int) of both operators: int8,
/// quant_min <= quant_max inside [-128, 127], and a scale that float32 holds exactly.
Error quant_params(const Args& a, float* scale, int32_t* zero_point, int32_t* lo, int32_t* hi) {
  double s = 0;
  int64_t zp = 0, qmin = 0, qmax = 0, dtype = 0;
  SOCSIM_RT_TRY(a.real(1, &s));
  SOCSIM_RT_TRY(a.integer(2, &zp));
  SOCSIM_RT_TRY(a.integer(3, &qmin));
  SOCSIM_RT_TRY(a.integer(4, &qmax));
  SOCSIM_RT_TRY(a.integer(5, &dtype));
  if (!(s > 0.0) || static_cast<double>(static_cast<float>(s)) != s) {
    return a.fail(Error::kNotSupported, "quantize scale (a positive float32)", 1);
  }
  if (zp < -128 || zp > 127) return a.fail(Error::kBadOperatorArgs, "zero_point", 2);
  if (dtype != static_cast<int64_t>(PteScalarType::kChar)) {
    return a.fail(Error::kNotSupported, "quantized dtype (int8)", 5);
  }
  if (qmin < -128 || qmax > 127 || qmin > qmax) {
    return a.fail(Error::kBadOperatorArgs, "quant_min/quant_max", 3);
  }
  *scale = static_cast<float>(s);
  *zero_point = static_cast<int32_t>(zp);
  *lo = static_cast<int32_t>(qmin);
  *hi = static_cast<int32_t>(qmax);
  return Error::kOk;
}

/// ExecuTorch's quantize: q = clamp(zero_point + round_half_even(x * (1 / scale))), the
/// reciprocal and the product in float32.
Error run_quantize(const PteOpCall& c) {
  const Tensor& x = *c.extra[0];
  Tensor& y = *c.extra[1];
  float scale;
  memcpy(&scale, &c.params[0], 4);
  const float inv_scale = 1.0f / scale;
  const float zp = static_cast<float>(c.params[1]);
  const float lo = static_cast<float>(c.params[2]);
  const float hi = static_cast<float>(c.params[3]);
  const float* px = x.data_as<float>();
  int8_t* py = y.data_as<int8_t>();
  const uint32_t n = y.numel();
  for (uint32_t i = 0; i < n; ++i) {
    float v = zp + rintf(px[i] * inv_scale);
    if (!(v >= lo)) v = lo;  // also NaN
    if (v > hi) v = hi;
    py[i] = static_cast<int8_t>(v);
  }
  return Error::kOk;
}

Error prepare_quantize(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  (void)ctx;
  if (a.count() != 7) {
    return a.fail(Error::kBadOperatorArgs, "quantize_per_tensor.out argument count", 0);
  }
  Tensor *x = nullptr, *y = nullptr;
  int8_t tx = 0, ty = 0;
  float scale = 0;
  int32_t zp = 0, lo = 0, hi = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(quant_params(a, &scale, &zp, &lo, &hi));
  SOCSIM_RT_TRY(a.tensor(6, &y, &ty));
  if (tx != static_cast<int8_t>(PteScalarType::kFloat) ||
      ty != static_cast<int8_t>(PteScalarType::kChar)) {
    return a.fail(Error::kDtypeMismatch, "quantize_per_tensor.out dtypes (float32 -> int8)", 0);
  }
  if (!x->same_shape(*y)) return a.fail(Error::kShapeMismatch, "quantize_per_tensor.out", 6);
  call->run = run_quantize;
  call->extra[0] = x;
  call->extra[1] = y;
  call->params[0] = float_word(scale);
  call->params[1] = zp;
  call->params[2] = lo;
  call->params[3] = hi;
  return Error::kOk;
}

Error prepare_dequantize(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 7 && a.count() != 8) {
    return a.fail(Error::kBadOperatorArgs, "dequantize_per_tensor.out argument count", 0);
  }
  Tensor *x = nullptr, *y = nullptr;
  int8_t tx = 0, ty = 0;
  float scale = 0;
  int32_t zp = 0, lo = 0, hi = 0;  // the range does not change dequantization
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(quant_params(a, &scale, &zp, &lo, &hi));
  if (a.count() == 8 && !a.is_null(6)) {
    int64_t out_dtype = 0;
    SOCSIM_RT_TRY(a.integer(6, &out_dtype));
    if (out_dtype != static_cast<int64_t>(PteScalarType::kFloat)) {
      return a.fail(Error::kNotSupported, "dequantize_per_tensor.out out_dtype (float32)", 6);
    }
  }
  SOCSIM_RT_TRY(a.tensor(a.count() - 1, &y, &ty));
  if (tx != static_cast<int8_t>(PteScalarType::kChar) ||
      ty != static_cast<int8_t>(PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "dequantize_per_tensor.out dtypes (int8 -> float32)", 0);
  }
  const int32_t words[ops::DequantizePerTensor::kArgs] = {float_word(scale), zp};
  call->run = run_one;
  return bind<ops::DequantizePerTensor>(ctx, call, 0, &x, 1, &y, 1, words,
                                        ops::DequantizePerTensor::kArgs);
}

// ---- the table ------------------------------------------------------------------------------

struct Operator {
  const char* name;      ///< e.g. "aten::add"
  const char* overload;  ///< e.g. "out"
  const char* full;      ///< "aten::add.out"
  Error (*prepare)(const PteOpContext& ctx, const Args& a, PteOpCall* call);
  uint32_t outputs = 1;  ///< out tensors (the last arguments before the return value)
};

const Operator kOperators[] = {
    {"aten::add", "out", "aten::add.out", prepare_add},
    {"aten::relu", "out", "aten::relu.out", prepare_relu},
    {"aten::convolution", "out", "aten::convolution.out", prepare_convolution},
    {"aten::max_pool2d_with_indices", "out", "aten::max_pool2d_with_indices.out",
     prepare_max_pool_with_indices, 2},
    {"aten::mean", "out", "aten::mean.out", prepare_mean},
    {"aten::permute_copy", "out", "aten::permute_copy.out", prepare_permute},
    {"aten::view_copy", "out", "aten::view_copy.out", prepare_view},
    {"aten::addmm", "out", "aten::addmm.out", prepare_addmm},
    {"quantized_decomposed::quantize_per_tensor", "out",
     "quantized_decomposed::quantize_per_tensor.out", prepare_quantize},
    {"quantized_decomposed::dequantize_per_tensor", "out",
     "quantized_decomposed::dequantize_per_tensor.out", prepare_dequantize},
};
constexpr uint32_t kOperatorCount = sizeof(kOperators) / sizeof(kOperators[0]);

bool equals(const char* text, uint32_t length, const char* literal) {
  return text != nullptr && strlen(literal) == length && memcmp(text, literal, length) == 0;
}

}  // namespace

Error pte_prepare_operator(const PteOpContext& ctx, const char* name, uint32_t name_length,
                           const char* overload, uint32_t overload_length, const uint32_t* args,
                           uint32_t arg_count, PteOpCall* call) {
  for (const Operator& op : kOperators) {
    if (!equals(name, name_length, op.name)) continue;
    if (overload_length == 0 ? op.overload[0] != '\0'
                             : !equals(overload, overload_length, op.overload)) {
      continue;
    }
    call->name = op.full;
    // The argument list ends with the call's return value: the out tensor itself, or a
    // TensorList of the out tensors.
    if (arg_count < op.outputs + 1) {
      return pte_fail(ctx.diag, Error::kBadOperatorArgs, "KernelCall.args (count)");
    }
    const uint32_t ret = args[arg_count - 1];
    const uint32_t* outs = args + arg_count - 1 - op.outputs;
    bool ret_ok = op.outputs == 1 && ret == outs[0];
    const PteValue& rv = ctx.values[ret];
    if (op.outputs > 1 && rv.kind == PteValueKind::kTensorList && rv.list.count == op.outputs) {
      ret_ok = true;
      for (uint32_t i = 0; i < op.outputs; ++i) {
        ret_ok = ret_ok && rv.list.index_at(i) == static_cast<int32_t>(outs[i]);
      }
    }
    if (!ret_ok) {
      return pte_fail(ctx.diag, Error::kBadOperatorArgs, "KernelCall.args (return value)", ret);
    }
    const Args a(ctx, args, arg_count - 1);
    SOCSIM_RT_TRY(op.prepare(ctx, a, call));
    // Every tensor the kernels read or write must be of a type they know.
    const KernelArgs* k = call->fn[0] != nullptr ? &call->args[0] : nullptr;
    if (k != nullptr && k->output_count > 0) call->elements = k->outputs[0]->numel();
    if (k == nullptr && call->extra[1] != nullptr) call->elements = call->extra[1]->numel();
    return Error::kOk;
  }
  return Error::kOperatorMissing;
}

uint32_t pte_operator_count() {
  return kOperatorCount;
}

const char* pte_operator_name(uint32_t index) {
  return index < kOperatorCount ? kOperators[index].full : nullptr;
}

}  // namespace socsim::runtime
