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

/// Room for `n` kernel calls in `call`.
Error reserve_calls(const PteOpContext& ctx, PteOpCall* call, uint32_t n) {
  call->fn = ctx.allocator->allocate_array<KernelFn>(n);
  call->args = ctx.allocator->allocate_array<KernelArgs>(n);
  if (call->fn == nullptr || call->args == nullptr) return Error::kMemoryAllocationFailed;
  call->capacity = n;
  call->calls = 0;
  return Error::kOk;
}

/// Runs the call's kernels in order.
Error run_kernels(const PteOpCall& c) {
  for (uint32_t i = 0; i < c.calls; ++i) SOCSIM_RT_TRY(c.fn[i](c.args[i]));
  return Error::kOk;
}

/// Prepares kernel call `slot` of `call` (room for two unless reserved): kernel `Op` for the
/// first input's dtype, operands and argument words copied into the method allocator.
template <typename Op>
Error bind(const PteOpContext& ctx, PteOpCall* call, uint32_t slot, Tensor* const* inputs,
           uint32_t input_count, Tensor* const* outputs, uint32_t output_count,
           const int32_t* words, uint32_t word_count) {
  if (call->fn == nullptr) SOCSIM_RT_TRY(reserve_calls(ctx, call, 2));
  if (slot >= call->capacity) return Error::kInvalidState;
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
  if (slot + 1 > call->calls) call->calls = slot + 1;
  if (call->run == nullptr) call->run = run_kernels;
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

// ---- aten::add.out, aten::sub.out(self, other, *, alpha, out), aten::mul.out(self, other, *,
//      out): the elementwise kernels (broadcasting), alpha 1 --------------------------------

/// The names an elementwise operator's failures give.
struct BinaryNames {
  const char* count;  // argument count
  const char* alpha;  // alpha (only 1); nullptr: the operator has no alpha
  const char* types;  // dtypes
};

template <typename Op>
struct BinaryOf;
template <>
struct BinaryOf<ops::Add> {
  static constexpr BinaryNames kNames = {"aten::add.out argument count",
                                         "aten::add.out alpha (only 1)", "aten::add.out dtypes"};
};
template <>
struct BinaryOf<ops::Sub> {
  static constexpr BinaryNames kNames = {"aten::sub.out argument count",
                                         "aten::sub.out alpha (only 1)", "aten::sub.out dtypes"};
};
template <>
struct BinaryOf<ops::Mul> {
  static constexpr BinaryNames kNames = {"aten::mul.out argument count", nullptr,
                                         "aten::mul.out dtypes"};
};

/// self, other, then alpha (a Scalar equal to 1) when the operator has one, then out: kernel
/// `Op` of the three tensors' common type.
template <typename Op>
Error prepare_alpha_binary(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  constexpr BinaryNames names = BinaryOf<Op>::kNames;
  const uint32_t count = names.alpha != nullptr ? 4 : 3;
  if (a.count() != count) return a.fail(Error::kBadOperatorArgs, names.count, 0);
  Tensor* t[3];
  int8_t types[3];
  SOCSIM_RT_TRY(a.tensor(0, &t[0], &types[0]));
  SOCSIM_RT_TRY(a.tensor(1, &t[1], &types[1]));
  if (names.alpha != nullptr) {
    double alpha = 0;
    SOCSIM_RT_TRY(a.real(2, &alpha));
    SOCSIM_RT_TRY(a.tensor(3, &t[2], &types[2]));
    if (alpha != 1.0) return a.fail(Error::kNotSupported, names.alpha, 2);
  } else {
    SOCSIM_RT_TRY(a.tensor(2, &t[2], &types[2]));
  }
  if (!same_types(types, 3)) return a.fail(Error::kDtypeMismatch, names.types, count - 1);
  call->run = run_kernels;
  return bind<Op>(ctx, call, 0, t, 2, &t[2], 1, nullptr, 0);
}

// ---- aten::relu.out(self, *, out) -----------------------------------------------------------

Error prepare_relu(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 2) return a.fail(Error::kBadOperatorArgs, "aten::relu.out argument count", 0);
  Tensor* t[2];
  int8_t types[2];
  SOCSIM_RT_TRY(a.tensor(0, &t[0], &types[0]));
  SOCSIM_RT_TRY(a.tensor(1, &t[1], &types[1]));
  if (!same_types(types, 2)) return a.fail(Error::kDtypeMismatch, "aten::relu.out dtypes", 1);
  call->run = run_kernels;
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
  // ExecuTorch's portable kernel sums each window from 0 and adds the bias last; the kernel
  // starts from the bias. For the same float32 rounding (which a PT2E program's quantize steps
  // would otherwise amplify), the kernel gets zeros and the add kernel adds the bias after
  // it, as a [C, 1, 1] view that broadcasts over the output's rows and columns.
  Tensor* bias_view = nullptr;
  if (in[2] != nullptr) {
    bias_view = ctx.allocator->allocate_array<Tensor>(1);
    if (bias_view == nullptr) return Error::kMemoryAllocationFailed;
    if (in[2]->rank != 1 || in[2]->sizes[0] != in[1]->sizes[0]) {
      return a.fail(Error::kShapeMismatch, "aten::convolution.out bias", 2);
    }
    bias_view->dtype = ScalarType::kFloat32;
    bias_view->rank = 3;
    bias_view->sizes[0] = in[2]->sizes[0];
    bias_view->sizes[1] = 1;
    bias_view->sizes[2] = 1;
    bias_view->data = in[2]->data;
    bias_view->nbytes = in[2]->nbytes;
    in[2] = nullptr;
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
  if (bias_view == nullptr) {
    call->run = run_kernels;
    return bind<ops::Convolution>(ctx, call, 0, in, 3, &out, 1, words, ops::Convolution::kArgs);
  }
  Tensor* sum_in[2] = {out, bias_view};
  call->run = run_kernels;
  SOCSIM_RT_TRY(
      bind<ops::Convolution>(ctx, call, 0, in, 3, &out, 1, words, ops::Convolution::kArgs));
  return bind<ops::Add>(ctx, call, 1, sum_in, 2, &out, 1, nullptr, 0);
}

// ---- aten::max_pool2d_with_indices.out(self, kernel_size, stride, padding, dilation,
//      ceil_mode, *, out, indices) --------------------------------------------------------

Error movable(const PteOpContext& ctx, Tensor* t, int8_t type, Tensor** out);

/// The values come from the max pooling kernel, the indices (int64, the flat position h*W+w
/// of each window's first maximum in its input plane) from the indices kernel, which writes
/// them as bytes (the runtime has no int64 element type).
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
  Tensor* idx_bytes = nullptr;  // the int64 indices as bytes, [N, C, Ho, Wo, 8]
  SOCSIM_RT_TRY(movable(ctx, idx, ti, &idx_bytes));
  call->run = run_kernels;
  SOCSIM_RT_TRY(bind<ops::MaxPool2d>(ctx, call, 0, &x, 1, &y, 1, words, ops::MaxPool2d::kArgs));
  return bind<ops::MaxPool2dIndices>(ctx, call, 1, &x, 1, &idx_bytes, 1, words,
                                     ops::MaxPool2dIndices::kArgs);
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
  call->run = run_kernels;
  return bind<ops::Mean>(ctx, call, 0, &x, 1, &y, 1, reduce, x->rank);
}

// ---- (self, int list, *, out) operators: permute_copy, view_copy, _adaptive_avg_pool2d ------

/// The names an operator of this form gives its failures.
struct TensorListOutNames {
  const char* count;  // argument count
  const char* types;  // dtypes
};

/// Reads self (argument 0), the int list (1) and out (2) of a three-argument operator whose
/// tensors have one type the kernels read (`float_only`: float32).
Error tensor_list_out(const Args& a, const TensorListOutNames& names, bool float_only, Tensor** x,
                      PteList* list, Tensor** y) {
  if (a.count() != 3) return a.fail(Error::kBadOperatorArgs, names.count, 0);
  int8_t types[2];
  SOCSIM_RT_TRY(a.tensor(0, x, &types[0]));
  SOCSIM_RT_TRY(a.int_list(1, list));
  SOCSIM_RT_TRY(a.tensor(2, y, &types[1]));
  if (!same_types(types, 2) ||
      (float_only && types[0] != static_cast<int8_t>(PteScalarType::kFloat))) {
    return a.fail(Error::kDtypeMismatch, names.types, 0);
  }
  return Error::kOk;
}

// ---- aten::permute_copy.out(self, dims, *, out) ---------------------------------------------

Error prepare_permute(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  Tensor *x = nullptr, *y = nullptr;
  PteList dims;
  SOCSIM_RT_TRY(tensor_list_out(
      a, {"aten::permute_copy.out argument count", "permute_copy dtypes"}, false, &x, &dims, &y));
  if (dims.count != x->rank) return a.fail(Error::kBadOperatorArgs, "permute_copy dims", 1);
  int32_t perm[kMaxRank] = {};
  for (uint32_t i = 0; i < dims.count; ++i) {
    uint32_t axis = 0;
    if (!axis_of(dims.int_at(i), x->rank, &axis)) {
      return a.fail(Error::kBadOperatorArgs, "permute_copy dims", 1);
    }
    perm[i] = static_cast<int32_t>(axis);
  }
  call->run = run_kernels;
  return bind<ops::PermuteCopy>(ctx, call, 0, &x, 1, &y, 1, perm, x->rank);
}

// ---- aten::view_copy.out(self, size, *, out) ------------------------------------------------

Error prepare_view(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  Tensor *x = nullptr, *y = nullptr;
  PteList size;
  SOCSIM_RT_TRY(tensor_list_out(
      a, {"aten::view_copy.out argument count", "view_copy dtypes"}, false, &x, &size, &y));
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
  call->run = run_kernels;
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
  call->run = run_kernels;
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

Error prepare_quantize(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
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
  // ExecuTorch's quantize multiplies by the reciprocal of the scale (docs/executorch.md).
  const int32_t words[ops::QuantizePerTensorReciprocal::kArgs] = {float_word(scale), zp, lo, hi};
  call->run = run_kernels;
  return bind<ops::QuantizePerTensorReciprocal>(ctx, call, 0, &x, 1, &y, 1, words,
                                                ops::QuantizePerTensorReciprocal::kArgs);
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
  call->run = run_kernels;
  return bind<ops::DequantizePerTensor>(ctx, call, 0, &x, 1, &y, 1, words,
                                        ops::DequantizePerTensor::kArgs);
}

// ---- Operators of the sequence models and the zoo (transformer encoder, LSTM, GRU) ---------
//
// The argument lists below are those ExecuTorch 1.5.1's exporter writes (scripts/
// pte_zoo_operators.py lists which model uses which). Where a kernel of the registry has the
// semantics (softmax, layer norm, batched matmul, slicing, concatenation, the elementwise
// and activation kernels), the operator is mapped onto it; data movement between shapes and
// the boolean steps of the attention's safe softmax run as loops of their own here.

/// Bytes per element of the ExecuTorch type of argument `i` (0: not a tensor type we read).
uint32_t element_bytes(const Args& a, uint32_t i) {
  return pte_element_size(a.value(i).dtype);
}

bool is_type(int8_t type, PteScalarType t) {
  return type == static_cast<int8_t>(t);
}

/// The tensors of a TensorList argument (value indices checked to name tensors).
Error tensor_list(const PteOpContext& ctx, const Args& a, uint32_t i, Tensor*** out,
                  uint32_t* count, int8_t* first_type) {
  const PteValue& v = a.value(i);
  if (v.kind != PteValueKind::kTensorList || v.list.count == 0) {
    return a.fail(Error::kBadOperatorArgs, "operator argument (a TensorList expected)", i);
  }
  Tensor** list = ctx.allocator->allocate_array<Tensor*>(v.list.count);
  if (list == nullptr) return Error::kMemoryAllocationFailed;
  for (uint32_t k = 0; k < v.list.count; ++k) {
    const int32_t index = v.list.index_at(k);
    if (index < 0 || static_cast<uint32_t>(index) >= ctx.value_count ||
        ctx.values[index].kind != PteValueKind::kTensor) {
      return a.fail(Error::kBadOperatorArgs, "TensorList item (a tensor expected)", i);
    }
    if (k == 0) *first_type = ctx.values[index].dtype;
    if (ctx.values[index].dtype != *first_type) {
      return a.fail(Error::kDtypeMismatch, "TensorList item dtypes", i);
    }
    list[k] = ctx.values[index].tensor;
  }
  *out = list;
  *count = v.list.count;
  return Error::kOk;
}

/// Element strides of `x` broadcast to `out`'s shape (numpy's rules: axes aligned at the
/// end, 0 along an axis where x has 1 element or no axis); false when x does not broadcast.
bool broadcast_strides(const Tensor& x, const Tensor& out, int32_t* strides) {
  if (x.rank > out.rank) return false;
  const uint32_t lead = out.rank - x.rank;
  int32_t s = 1;
  for (uint32_t k = out.rank; k-- > 0;) {
    if (k < lead) {
      strides[k] = 0;
      continue;
    }
    const int32_t n = x.sizes[k - lead];
    if (n != out.sizes[k] && n != 1) return false;
    strides[k] = n == 1 ? 0 : s;
    s *= n;
  }
  return true;
}

/// Outer count, axis length and inner count (elements) of `x` around axis `axis`.
void split_at(const Tensor& x, uint32_t axis, uint32_t* outer, uint32_t* length,
              uint32_t* inner) {
  *outer = 1;
  *inner = 1;
  for (uint32_t k = 0; k < axis; ++k) *outer *= static_cast<uint32_t>(x.sizes[k]);
  for (uint32_t k = axis + 1; k < x.rank; ++k) *inner *= static_cast<uint32_t>(x.sizes[k]);
  *length = x.rank == 0 ? 1 : static_cast<uint32_t>(x.sizes[axis]);
}

/// A descriptor of `base`'s data under another element type and shape (from the method
/// allocator); nullptr when out of memory.
Tensor* view_of(const PteOpContext& ctx, const Tensor& base, ScalarType dtype, uint32_t rank,
                const int32_t* sizes) {
  Tensor* t = ctx.allocator->allocate_array<Tensor>(1);
  if (t == nullptr) return nullptr;
  t->dtype = dtype;
  t->rank = rank;
  for (uint32_t d = 0; d < rank; ++d) t->sizes[d] = sizes[d];
  t->data = base.data;
  t->nbytes = base.nbytes;
  return t;
}

/// A constant one-element tensor of `bytes` (1, 4 or 8 bytes) as the runtime type `dtype`
/// (shape [1]; an 8-byte value as [8] bytes).
Tensor* scalar_tensor(const PteOpContext& ctx, ScalarType dtype, const void* bytes,
                      uint32_t size) {
  Tensor* t = ctx.allocator->allocate_array<Tensor>(1);
  uint32_t* data = ctx.allocator->allocate_array<uint32_t>(2);
  if (t == nullptr || data == nullptr) return nullptr;
  memcpy(data, bytes, size);
  t->dtype = dtype;
  t->rank = 1;
  t->sizes[0] = dtype == ScalarType::kUInt8 ? static_cast<int32_t>(size) : 1;
  t->data = data;
  t->nbytes = size;
  return t;
}

/// `t` as the data-movement kernels see it: itself for the runtime's types (ExecuTorch's
/// bool is its uint8), else its bytes as uint8 with one more trailing axis of the element's
/// size (int64, float64, int16: the bytes move as they are). kNotSupported when the tensor
/// has rank kMaxRank already.
Error movable(const PteOpContext& ctx, Tensor* t, int8_t type, Tensor** out) {
  const uint32_t size = pte_element_size(type);
  if (runtime_readable(type) || size == 1) {
    *out = t;
    return Error::kOk;
  }
  if (size == 0 || t->rank >= kMaxRank) return Error::kNotSupported;
  int32_t sizes[kMaxRank];
  for (uint32_t d = 0; d < t->rank; ++d) sizes[d] = t->sizes[d];
  sizes[t->rank] = static_cast<int32_t>(size);
  *out = view_of(ctx, *t, ScalarType::kUInt8, t->rank + 1, sizes);
  return *out == nullptr ? Error::kMemoryAllocationFailed : Error::kOk;
}

/// The slice kernel's (first, step) words taking index `first` of axis `axis` of `x` (every
/// other axis whole).
void slice_words(const Tensor& x, uint32_t axis, int32_t first, int32_t* words) {
  for (uint32_t k = 0; k < x.rank; ++k) {
    words[2 * k] = k == axis ? first : 0;
    words[2 * k + 1] = 1;
  }
}

// ---- views: aten::unsqueeze_copy.out(self, dim, *, out), aten::squeeze_copy.dims_out(self,
//      dims, *, out), dim_order_ops::_clone_dim_order.out(self, *, non_blocking, dim_order?,
//      out): the same bytes under the output's shape (the view_copy kernel) ----------------

Error prepare_same_bytes(const PteOpContext& ctx, const Args& a, PteOpCall* call,
                         const char* what) {
  Tensor *x = nullptr, *y = nullptr;
  int8_t types[2];
  SOCSIM_RT_TRY(a.tensor(0, &x, &types[0]));
  SOCSIM_RT_TRY(a.tensor(a.count() - 1, &y, &types[1]));
  if (!same_types(types, 2)) return a.fail(Error::kDtypeMismatch, what, 0);
  if (x->numel() != y->numel()) return a.fail(Error::kShapeMismatch, what, a.count() - 1);
  call->run = run_kernels;
  return bind<ops::ViewCopy>(ctx, call, 0, &x, 1, &y, 1, nullptr, 0);
}

Error prepare_unsqueeze(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 3) return a.fail(Error::kBadOperatorArgs, "unsqueeze_copy argument count", 0);
  int64_t dim = 0;
  uint32_t axis = 0;
  SOCSIM_RT_TRY(a.integer(1, &dim));
  Tensor* y = nullptr;
  int8_t ty = 0;
  SOCSIM_RT_TRY(a.tensor(2, &y, &ty));
  if (!axis_of(dim, y->rank, &axis) || y->sizes[axis] != 1) {
    return a.fail(Error::kBadOperatorArgs, "aten::unsqueeze_copy.out dim", 1);
  }
  return prepare_same_bytes(ctx, a, call, "aten::unsqueeze_copy.out");
}

Error prepare_squeeze_dims(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 3) return a.fail(Error::kBadOperatorArgs, "squeeze_copy argument count", 0);
  PteList dims;
  SOCSIM_RT_TRY(a.int_list(1, &dims));
  Tensor* x = nullptr;
  int8_t tx = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  for (uint32_t i = 0; i < dims.count; ++i) {
    uint32_t axis = 0;
    if (!axis_of(dims.int_at(i), x->rank, &axis)) {
      return a.fail(Error::kBadOperatorArgs, "aten::squeeze_copy.dims_out dims", 1);
    }
  }
  return prepare_same_bytes(ctx, a, call, "aten::squeeze_copy.dims_out");
}

Error prepare_clone_dim_order(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 4) return a.fail(Error::kBadOperatorArgs, "_clone_dim_order argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t tx = 0, ty = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(a.tensor(3, &y, &ty));
  if (!a.is_null(2)) {
    PteList order;
    SOCSIM_RT_TRY(a.int_list(2, &order));
    bool contiguous = order.count == y->rank;
    for (uint32_t i = 0; contiguous && i < order.count; ++i) contiguous = order.int_at(i) == i;
    if (!contiguous) {
      return a.fail(Error::kNotSupported, "_clone_dim_order dim_order (contiguous only)", 2);
    }
  }
  if (!x->same_shape(*y)) return a.fail(Error::kShapeMismatch, "_clone_dim_order shapes", 3);
  return prepare_same_bytes(ctx, a, call, "dim_order_ops::_clone_dim_order.out");
}

// ---- aten::select_copy.int_out(self, dim, index, *, out): the slice kernel, its output
//      the out tensor with the selected axis kept (length 1) --------------------------------

Error prepare_select(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 4) return a.fail(Error::kBadOperatorArgs, "select_copy argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t tx = 0, ty = 0;
  int64_t dim = 0, index = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(a.integer(1, &dim));
  SOCSIM_RT_TRY(a.integer(2, &index));
  SOCSIM_RT_TRY(a.tensor(3, &y, &ty));
  uint32_t axis = 0;
  if (tx != ty || element_bytes(a, 0) == 0) {
    return a.fail(Error::kDtypeMismatch, "aten::select_copy.int_out dtypes", 0);
  }
  if (x->rank == 0 || !axis_of(dim, x->rank, &axis)) {
    return a.fail(Error::kBadOperatorArgs, "aten::select_copy.int_out dim", 1);
  }
  uint32_t outer, length, inner;
  split_at(*x, axis, &outer, &length, &inner);
  if (index < -static_cast<int64_t>(length) || index >= static_cast<int64_t>(length)) {
    return a.fail(Error::kBadOperatorArgs, "aten::select_copy.int_out index", 2);
  }
  if (index < 0) index += length;
  bool same = y->rank + 1 == x->rank;
  for (uint32_t k = 0; same && k < y->rank; ++k) same = y->sizes[k] == x->sizes[k < axis ? k : k + 1];
  if (!same) return a.fail(Error::kShapeMismatch, "aten::select_copy.int_out out", 3);
  int32_t sizes[kMaxRank];
  for (uint32_t k = 0; k < x->rank; ++k) sizes[k] = k == axis ? 1 : x->sizes[k];
  Tensor* kept = view_of(ctx, *y, y->dtype, x->rank, sizes);
  if (kept == nullptr) return Error::kMemoryAllocationFailed;
  Tensor *vx = nullptr, *vy = nullptr;
  if (movable(ctx, x, tx, &vx) != Error::kOk || movable(ctx, kept, ty, &vy) != Error::kOk) {
    return a.fail(Error::kNotSupported, "aten::select_copy.int_out (rank with the bytes)", 0);
  }
  int32_t words[2 * kMaxRank];
  slice_words(*vx, axis, static_cast<int32_t>(index), words);
  return bind<ops::SliceCopy>(ctx, call, 0, &vx, 1, &vy, 1, words, 2 * vx->rank);
}

// ---- aten::mul.Scalar_out(self, other, *, out): the mul kernel, other a constant
//      one-element float32(other) -----------------------------------------------------------

Error prepare_mul_scalar(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 3) return a.fail(Error::kBadOperatorArgs, "mul.Scalar_out argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t types[2];
  double s = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &types[0]));
  SOCSIM_RT_TRY(a.real(1, &s));
  SOCSIM_RT_TRY(a.tensor(2, &y, &types[1]));
  if (!same_types(types, 2) || !is_type(types[0], PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "aten::mul.Scalar_out dtypes (float32)", 0);
  }
  if (!x->same_shape(*y)) return a.fail(Error::kShapeMismatch, "aten::mul.Scalar_out", 2);
  const float value = static_cast<float>(s);
  Tensor* t[2] = {x, scalar_tensor(ctx, ScalarType::kFloat32, &value, 4)};
  if (t[1] == nullptr) return Error::kMemoryAllocationFailed;
  return bind<ops::Mul>(ctx, call, 0, t, 2, &y, 1, nullptr, 0);
}

// ---- aten::expand_copy.out(self, size, *, implicit, out): the expand kernel -----------------

Error prepare_expand(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 4) return a.fail(Error::kBadOperatorArgs, "expand_copy argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t tx = 0, ty = 0;
  PteList size;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(a.int_list(1, &size));
  SOCSIM_RT_TRY(a.tensor(3, &y, &ty));
  if (tx != ty || element_bytes(a, 0) == 0) {
    return a.fail(Error::kDtypeMismatch, "aten::expand_copy.out dtypes", 0);
  }
  if (size.count != y->rank || x->rank > y->rank) {
    return a.fail(Error::kShapeMismatch, "aten::expand_copy.out size", 1);
  }
  const uint32_t lead = y->rank - x->rank;
  for (uint32_t k = 0; k < size.count; ++k) {
    const int64_t n = size.int_at(k);
    const int64_t want = n == -1 && k >= lead ? x->sizes[k - lead] : n;
    if (want != y->sizes[k]) return a.fail(Error::kShapeMismatch, "aten::expand_copy.out size", 1);
  }
  int32_t strides[kMaxRank];
  if (!broadcast_strides(*x, *y, strides)) {
    return a.fail(Error::kShapeMismatch, "aten::expand_copy.out (not broadcastable)", 0);
  }
  Tensor *vx = nullptr, *vy = nullptr;
  if (movable(ctx, x, tx, &vx) != Error::kOk || movable(ctx, y, ty, &vy) != Error::kOk) {
    return a.fail(Error::kNotSupported, "aten::expand_copy.out (rank with the bytes)", 0);
  }
  return bind<ops::ExpandCopy>(ctx, call, 0, &vx, 1, &vy, 1, nullptr, 0);
}

// ---- aten::bmm.out(self, mat2, *, out): the batched matmul kernel ----------------------------

Error prepare_bmm(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 3) return a.fail(Error::kBadOperatorArgs, "aten::bmm.out argument count", 0);
  Tensor* t[3];
  int8_t types[3];
  for (uint32_t i = 0; i < 3; ++i) SOCSIM_RT_TRY(a.tensor(i, &t[i], &types[i]));
  if (!same_types(types, 3) || !is_type(types[0], PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "aten::bmm.out dtypes (float32)", 0);
  }
  if (t[0]->rank != 3 || t[1]->rank != 3 || t[2]->rank != 3 || t[0]->sizes[0] != t[1]->sizes[0]) {
    return a.fail(Error::kShapeMismatch, "aten::bmm.out (3-D, same batch)", 0);
  }
  call->run = run_kernels;
  return bind<ops::Matmul>(ctx, call, 0, t, 2, &t[2], 1, nullptr, 0);
}

// ---- aten::_softmax.out(self, dim, half_to_float, *, out): the softmax kernel ---------------

Error prepare_softmax(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 4) return a.fail(Error::kBadOperatorArgs, "aten::_softmax.out argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t types[2];
  int64_t dim = 0;
  bool half_to_float = false;
  SOCSIM_RT_TRY(a.tensor(0, &x, &types[0]));
  SOCSIM_RT_TRY(a.integer(1, &dim));
  SOCSIM_RT_TRY(a.boolean(2, &half_to_float));
  SOCSIM_RT_TRY(a.tensor(3, &y, &types[1]));
  if (!same_types(types, 2) || !is_type(types[0], PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "aten::_softmax.out dtypes (float32)", 0);
  }
  if (half_to_float) return a.fail(Error::kNotSupported, "aten::_softmax.out half_to_float", 2);
  uint32_t axis = 0;
  if (x->rank == 0 || !axis_of(dim, x->rank, &axis)) {
    return a.fail(Error::kBadOperatorArgs, "aten::_softmax.out dim", 1);
  }
  const int32_t words[ops::Softmax::kArgs] = {static_cast<int32_t>(axis)};
  call->run = run_kernels;
  return bind<ops::Softmax>(ctx, call, 0, &x, 1, &y, 1, words, ops::Softmax::kArgs);
}

// ---- the safe softmax's boolean steps: aten::eq.Scalar_out(self, other, *, out) (the eq
//      kernel against a constant one-element tensor), aten::logical_not.out(self, *, out)
//      (the logical_not kernel; float32: eq against 0), aten::any.out(self, dim, keepdim, *,
//      out) (the amax kernel on the 0/1 bytes as int8), aten::full_like.out(self, fill_value,
//      *, memory_format?, out) and aten::full.out(size, fill_value, *, out) (the expand
//      kernel from a constant one-element tensor), aten::where.self_out(condition, self,
//      other, *, out) (the where kernel) ------------------------------------------------------

Error prepare_eq_scalar(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 3) return a.fail(Error::kBadOperatorArgs, "eq.Scalar_out argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t tx = 0, ty = 0;
  double s = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(a.real(1, &s));
  SOCSIM_RT_TRY(a.tensor(2, &y, &ty));
  if (!is_type(tx, PteScalarType::kFloat) || !is_type(ty, PteScalarType::kBool)) {
    return a.fail(Error::kDtypeMismatch, "aten::eq.Scalar_out dtypes (float32 -> bool)", 0);
  }
  if (!x->same_shape(*y)) return a.fail(Error::kShapeMismatch, "aten::eq.Scalar_out", 2);
  const float value = static_cast<float>(s);
  Tensor* t[2] = {x, scalar_tensor(ctx, ScalarType::kFloat32, &value, 4)};
  if (t[1] == nullptr) return Error::kMemoryAllocationFailed;
  return bind<ops::Eq>(ctx, call, 0, t, 2, &y, 1, nullptr, 0);
}

Error prepare_logical_not(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 2) return a.fail(Error::kBadOperatorArgs, "logical_not argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t tx = 0, ty = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(a.tensor(1, &y, &ty));
  const bool from_float = is_type(tx, PteScalarType::kFloat);
  if ((!from_float && !is_type(tx, PteScalarType::kBool)) || !is_type(ty, PteScalarType::kBool)) {
    return a.fail(Error::kDtypeMismatch, "aten::logical_not.out dtypes (bool or float32 -> bool)",
                  0);
  }
  if (!x->same_shape(*y)) return a.fail(Error::kShapeMismatch, "aten::logical_not.out", 1);
  if (!from_float) return bind<ops::LogicalNot>(ctx, call, 0, &x, 1, &y, 1, nullptr, 0);
  // A float is false exactly when it equals 0 (either sign; NaN is true).
  const float zero = 0.0f;
  Tensor* t[2] = {x, scalar_tensor(ctx, ScalarType::kFloat32, &zero, 4)};
  if (t[1] == nullptr) return Error::kMemoryAllocationFailed;
  return bind<ops::Eq>(ctx, call, 0, t, 2, &y, 1, nullptr, 0);
}

Error prepare_any(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 4) return a.fail(Error::kBadOperatorArgs, "aten::any.out argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t tx = 0, ty = 0;
  int64_t dim = 0;
  bool keepdim = false;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(a.integer(1, &dim));
  SOCSIM_RT_TRY(a.boolean(2, &keepdim));
  SOCSIM_RT_TRY(a.tensor(3, &y, &ty));
  if (!is_type(tx, PteScalarType::kBool) || !is_type(ty, PteScalarType::kBool)) {
    return a.fail(Error::kDtypeMismatch, "aten::any.out dtypes (bool)", 0);
  }
  uint32_t axis = 0;
  if (x->rank == 0 || !axis_of(dim, x->rank, &axis)) {
    return a.fail(Error::kBadOperatorArgs, "aten::any.out dim", 1);
  }
  uint32_t outer, length, inner;
  split_at(*x, axis, &outer, &length, &inner);
  if (y->numel() != outer * inner || y->rank != (keepdim ? x->rank : x->rank - 1)) {
    return a.fail(Error::kShapeMismatch, "aten::any.out out", 3);
  }
  // Bools are the bytes 0 and 1: their maximum over the axis is their "any".
  Tensor* vx = view_of(ctx, *x, ScalarType::kInt8, x->rank, x->sizes);
  Tensor* vy = view_of(ctx, *y, ScalarType::kInt8, y->rank, y->sizes);
  if (vx == nullptr || vy == nullptr) return Error::kMemoryAllocationFailed;
  int32_t reduce[kMaxRank] = {};
  reduce[axis] = 1;
  return bind<ops::Amax>(ctx, call, 0, &vx, 1, &vy, 1, reduce, x->rank);
}

/// The fill of `y` (ExecuTorch type `ty`) with Scalar argument `value_arg`: the expand
/// kernel from a constant one-element tensor of the value in y's type.
Error prepare_fill(const PteOpContext& ctx, const Args& a, uint32_t value_arg, Tensor* y,
                   int8_t ty, PteOpCall* call) {
  double d = 0;
  SOCSIM_RT_TRY(a.real(value_arg, &d));
  const bool is_float = is_type(ty, PteScalarType::kFloat);
  if (!is_float && !is_type(ty, PteScalarType::kInt) && !is_type(ty, PteScalarType::kChar) &&
      !is_type(ty, PteScalarType::kByte) && !is_type(ty, PteScalarType::kBool) &&
      !is_type(ty, PteScalarType::kLong)) {
    return a.fail(Error::kDtypeMismatch, "fill dtype", a.count() - 1);
  }
  const uint32_t size = pte_element_size(ty);
  uint8_t bytes[8] = {};
  if (is_float) {
    const float f = static_cast<float>(d);
    memcpy(bytes, &f, 4);
  } else {
    if (!(d >= -9.2e18 && d <= 9.2e18)) return a.fail(Error::kBadOperatorArgs, "fill_value", 1);
    int64_t v = a.value(value_arg).kind == PteValueKind::kInt ? a.value(value_arg).i
                                                               : static_cast<int64_t>(d);
    if (is_type(ty, PteScalarType::kBool)) v = v != 0 ? 1 : 0;
    memcpy(bytes, &v, 8);  // little-endian: the low bytes are the narrower integer
  }
  Tensor* vy = nullptr;
  if (movable(ctx, y, ty, &vy) != Error::kOk) {
    return a.fail(Error::kNotSupported, "fill (rank with the bytes)", a.count() - 1);
  }
  Tensor* value = scalar_tensor(ctx, vy->dtype, bytes, size);
  if (value == nullptr) return Error::kMemoryAllocationFailed;
  return bind<ops::ExpandCopy>(ctx, call, 0, &value, 1, &vy, 1, nullptr, 0);
}

Error prepare_full_like(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 4) return a.fail(Error::kBadOperatorArgs, "full_like argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t tx = 0, ty = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(a.tensor(3, &y, &ty));
  if (!a.is_null(2)) {
    int64_t format = 0;
    SOCSIM_RT_TRY(a.integer(2, &format));  // torch.contiguous_format or preserve_format
    if (format != 0 && format != 1) {
      return a.fail(Error::kNotSupported, "aten::full_like.out memory_format", 2);
    }
  }
  if (!x->same_shape(*y)) return a.fail(Error::kShapeMismatch, "aten::full_like.out", 3);
  return prepare_fill(ctx, a, 1, y, ty, call);
}

Error prepare_full(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 3) return a.fail(Error::kBadOperatorArgs, "aten::full.out argument count", 0);
  PteList size;
  Tensor* y = nullptr;
  int8_t ty = 0;
  SOCSIM_RT_TRY(a.int_list(0, &size));
  SOCSIM_RT_TRY(a.tensor(2, &y, &ty));
  bool same = size.count == y->rank;
  for (uint32_t k = 0; same && k < size.count; ++k) same = size.int_at(k) == y->sizes[k];
  if (!same) return a.fail(Error::kShapeMismatch, "aten::full.out size", 0);
  return prepare_fill(ctx, a, 1, y, ty, call);
}

Error prepare_where(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 4) return a.fail(Error::kBadOperatorArgs, "where.self_out argument count", 0);
  Tensor* t[4];
  int8_t types[4];
  for (uint32_t i = 0; i < 4; ++i) SOCSIM_RT_TRY(a.tensor(i, &t[i], &types[i]));
  if (!is_type(types[0], PteScalarType::kBool) || !is_type(types[1], PteScalarType::kFloat) ||
      types[2] != types[1] || types[3] != types[1]) {
    return a.fail(Error::kDtypeMismatch, "aten::where.self_out dtypes (bool, float32)", 0);
  }
  int32_t strides[kMaxRank];
  for (uint32_t i = 0; i < 3; ++i) {
    if (!broadcast_strides(*t[i], *t[3], strides)) {
      return a.fail(Error::kShapeMismatch, "aten::where.self_out (not broadcastable)", i);
    }
  }
  Tensor* in[3] = {t[1], t[0], t[2]};  // the kernel's order: x, condition, y
  return bind<ops::Where>(ctx, call, 0, in, 3, &t[3], 1, nullptr, 0);
}

// ---- aten::native_layer_norm.out(input, normalized_shape, weight?, bias?, eps, *, out0,
//      out1, out2): ExecuTorch's layer norm kernel, then its statistics kernel for each row's
//      mean and 1/std -------------------------------------------------------------------

/// A float32 vector of `n` elements all equal to `value` (a missing weight or bias).
Tensor* constant_vector(MemoryAllocator& alloc, uint32_t n, float value) {
  Tensor* t = alloc.allocate_array<Tensor>(1);
  float* data = alloc.allocate_array<float>(n);
  if (t == nullptr || data == nullptr) return nullptr;
  for (uint32_t i = 0; i < n; ++i) data[i] = value;
  t->dtype = ScalarType::kFloat32;
  t->rank = 1;
  t->sizes[0] = static_cast<int32_t>(n);
  t->data = data;
  t->nbytes = n * 4;
  return t;
}

Error prepare_layer_norm(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 8) {
    return a.fail(Error::kBadOperatorArgs, "aten::native_layer_norm.out argument count", 0);
  }
  Tensor* in[3] = {nullptr, nullptr, nullptr};
  Tensor *y = nullptr, *mean = nullptr, *rstd = nullptr;
  int8_t types[6] = {};
  PteList shape;
  double eps = 0;
  SOCSIM_RT_TRY(a.tensor(0, &in[0], &types[0]));
  SOCSIM_RT_TRY(a.int_list(1, &shape));
  types[1] = types[2] = types[0];
  if (!a.is_null(2)) SOCSIM_RT_TRY(a.tensor(2, &in[1], &types[1]));
  if (!a.is_null(3)) SOCSIM_RT_TRY(a.tensor(3, &in[2], &types[2]));
  SOCSIM_RT_TRY(a.real(4, &eps));
  SOCSIM_RT_TRY(a.tensor(5, &y, &types[3]));
  SOCSIM_RT_TRY(a.tensor(6, &mean, &types[4]));
  SOCSIM_RT_TRY(a.tensor(7, &rstd, &types[5]));
  if (!same_types(types, 6) || !is_type(types[0], PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "aten::native_layer_norm.out dtypes (float32)", 0);
  }
  const Tensor& x = *in[0];
  if (shape.count == 0 || shape.count > x.rank) {
    return a.fail(Error::kShapeMismatch, "aten::native_layer_norm.out normalized_shape", 1);
  }
  const uint32_t axis = x.rank - shape.count;
  uint32_t n = 1;
  for (uint32_t k = 0; k < shape.count; ++k) {
    if (shape.int_at(k) != x.sizes[axis + k]) {
      return a.fail(Error::kShapeMismatch, "aten::native_layer_norm.out normalized_shape", 1);
    }
    n *= static_cast<uint32_t>(x.sizes[axis + k]);
  }
  if (n == 0 || mean->numel() * n != x.numel() || rstd->numel() != mean->numel()) {
    return a.fail(Error::kShapeMismatch, "aten::native_layer_norm.out mean/rstd", 6);
  }
  if (in[1] == nullptr && (in[1] = constant_vector(*ctx.allocator, n, 1.0f)) == nullptr) {
    return Error::kMemoryAllocationFailed;
  }
  if (in[2] == nullptr && (in[2] = constant_vector(*ctx.allocator, n, 0.0f)) == nullptr) {
    return Error::kMemoryAllocationFailed;
  }
  const float e = static_cast<float>(eps);
  if (!(e >= 0.0f)) return a.fail(Error::kBadOperatorArgs, "aten::native_layer_norm.out eps", 4);
  // ExecuTorch's form: the variance as E[x^2] - mean^2, (x - mean) / std (docs/executorch.md).
  const int32_t words[ops::LayerNormSumsq::kArgs] = {static_cast<int32_t>(axis), float_word(e)};
  const int32_t mean_words[ops::LayerNormStat::kArgs] = {static_cast<int32_t>(axis), float_word(e),
                                                         0};
  const int32_t rstd_words[ops::LayerNormStat::kArgs] = {static_cast<int32_t>(axis), float_word(e),
                                                         1};
  call->run = run_kernels;
  SOCSIM_RT_TRY(reserve_calls(ctx, call, 3));
  SOCSIM_RT_TRY(bind<ops::LayerNormSumsq>(ctx, call, 0, in, 3, &y, 1, words,
                                          ops::LayerNormSumsq::kArgs));
  SOCSIM_RT_TRY(bind<ops::LayerNormStat>(ctx, call, 1, in, 1, &mean, 1, mean_words,
                                         ops::LayerNormStat::kArgs));
  return bind<ops::LayerNormStat>(ctx, call, 2, in, 1, &rstd, 1, rstd_words,
                                  ops::LayerNormStat::kArgs);
}

// ---- aten::slice_copy.Tensor_out(self, dim, start?, end?, step, *, out): the slice kernel --

Error prepare_slice(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 6) return a.fail(Error::kBadOperatorArgs, "slice_copy argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t types[2];
  int64_t dim = 0, start = 0, end = 0, step = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &types[0]));
  SOCSIM_RT_TRY(a.integer(1, &dim));
  SOCSIM_RT_TRY(a.integer(4, &step));
  SOCSIM_RT_TRY(a.tensor(5, &y, &types[1]));
  if (!same_types(types, 2)) return a.fail(Error::kDtypeMismatch, "slice_copy dtypes", 0);
  uint32_t axis = 0;
  if (x->rank == 0 || x->rank != y->rank || !axis_of(dim, x->rank, &axis)) {
    return a.fail(Error::kBadOperatorArgs, "aten::slice_copy.Tensor_out dim", 1);
  }
  if (step < 1) return a.fail(Error::kBadOperatorArgs, "aten::slice_copy.Tensor_out step", 4);
  const int64_t length = x->sizes[axis];
  start = 0;
  end = length;
  if (!a.is_null(2)) SOCSIM_RT_TRY(a.integer(2, &start));
  if (!a.is_null(3)) SOCSIM_RT_TRY(a.integer(3, &end));
  // Python's slice rules: negative counts from the end, then clamped to [0, length].
  if (start < 0) start += length;
  if (end < 0) end += length;
  start = start < 0 ? 0 : (start > length ? length : start);
  end = end < start ? start : (end > length ? length : end);
  const int64_t count = (end - start + step - 1) / step;
  for (uint32_t k = 0; k < x->rank; ++k) {
    const int64_t want = k == axis ? count : x->sizes[k];
    if (y->sizes[k] != want) {
      return a.fail(Error::kShapeMismatch, "aten::slice_copy.Tensor_out out", 5);
    }
  }
  if (count == 0) return a.fail(Error::kNotSupported, "aten::slice_copy.Tensor_out (empty)", 5);
  if (step > 65536) step = length;  // one element: the step is never taken
  int32_t words[2 * kMaxRank];
  for (uint32_t k = 0; k < x->rank; ++k) {
    words[2 * k] = k == axis ? static_cast<int32_t>(start) : 0;
    words[2 * k + 1] = k == axis ? static_cast<int32_t>(step) : 1;
  }
  call->run = run_kernels;
  return bind<ops::SliceCopy>(ctx, call, 0, &x, 1, &y, 1, words, 2 * x->rank);
}

// ---- aten::split_with_sizes_copy.out(self, split_sizes, dim, *, out): one slice kernel
//      call per tensor of the out list, consecutive blocks along dim ------------------------

Error prepare_split(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 4) return a.fail(Error::kBadOperatorArgs, "split_with_sizes argument count", 0);
  Tensor* x = nullptr;
  int8_t tx = 0, ty = 0;
  PteList sizes;
  int64_t dim = 0;
  Tensor** outs = nullptr;
  uint32_t count = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(a.int_list(1, &sizes));
  SOCSIM_RT_TRY(a.integer(2, &dim));
  SOCSIM_RT_TRY(tensor_list(ctx, a, 3, &outs, &count, &ty));
  if (tx != ty || pte_element_size(tx) == 0) {
    return a.fail(Error::kDtypeMismatch, "split_with_sizes_copy dtypes", 0);
  }
  uint32_t axis = 0;
  if (x->rank == 0 || !axis_of(dim, x->rank, &axis)) {
    return a.fail(Error::kBadOperatorArgs, "split_with_sizes_copy dim", 2);
  }
  if (sizes.count != count) return a.fail(Error::kShapeMismatch, "split_with_sizes_copy out", 3);
  int64_t total = 0;
  for (uint32_t k = 0; k < count; ++k) {
    const Tensor& y = *outs[k];
    bool ok = y.rank == x->rank && sizes.int_at(k) == y.sizes[axis];
    for (uint32_t d = 0; ok && d < x->rank; ++d) ok = d == axis || y.sizes[d] == x->sizes[d];
    if (!ok) return a.fail(Error::kShapeMismatch, "split_with_sizes_copy out", 3);
    total += y.sizes[axis];
  }
  if (total != x->sizes[axis]) {
    return a.fail(Error::kShapeMismatch, "split_with_sizes_copy split_sizes", 1);
  }
  Tensor* vx = nullptr;
  if (movable(ctx, x, tx, &vx) != Error::kOk) {
    return a.fail(Error::kNotSupported, "split_with_sizes_copy (rank with the bytes)", 0);
  }
  SOCSIM_RT_TRY(reserve_calls(ctx, call, count));
  int32_t first = 0;
  for (uint32_t k = 0; k < count; ++k) {
    Tensor* vy = nullptr;
    SOCSIM_RT_TRY(movable(ctx, outs[k], ty, &vy));
    const int32_t length = outs[k]->sizes[axis];
    if (length > 0) {  // an empty part copies nothing (the slice kernel wants one element)
      int32_t words[2 * kMaxRank];
      slice_words(*vx, axis, first, words);
      SOCSIM_RT_TRY(bind<ops::SliceCopy>(ctx, call, call->calls, &vx, 1, &vy, 1, words,
                                         2 * vx->rank));
    }
    first += length;
  }
  call->run = run_kernels;
  call->extra[1] = outs[0];
  return Error::kOk;
}

// ---- elementwise kernels of one input: aten::sigmoid.out, aten::tanh.out (self, *, out) ----

template <typename Op>
Error prepare_unary(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 2) return a.fail(Error::kBadOperatorArgs, "unary operator argument count", 0);
  Tensor* t[2];
  int8_t types[2];
  SOCSIM_RT_TRY(a.tensor(0, &t[0], &types[0]));
  SOCSIM_RT_TRY(a.tensor(1, &t[1], &types[1]));
  if (!same_types(types, 2) || !is_type(types[0], PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "unary operator dtypes (float32)", 0);
  }
  call->run = run_kernels;
  return bind<Op>(ctx, call, 0, t, 1, &t[1], 1, nullptr, 0);
}

// ---- aten::cat.out(tensors, dim, *, out): the concatenation kernel ---------------------------

Error prepare_cat(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 3) return a.fail(Error::kBadOperatorArgs, "aten::cat.out argument count", 0);
  Tensor** inputs = nullptr;
  uint32_t count = 0;
  int8_t types[2] = {};
  int64_t dim = 0;
  Tensor* y = nullptr;
  SOCSIM_RT_TRY(tensor_list(ctx, a, 0, &inputs, &count, &types[0]));
  SOCSIM_RT_TRY(a.integer(1, &dim));
  SOCSIM_RT_TRY(a.tensor(2, &y, &types[1]));
  if (!same_types(types, 2)) return a.fail(Error::kDtypeMismatch, "aten::cat.out dtypes", 2);
  uint32_t axis = 0;
  if (y->rank == 0 || !axis_of(dim, y->rank, &axis)) {
    return a.fail(Error::kBadOperatorArgs, "aten::cat.out dim", 1);
  }
  const int32_t words[ops::Cat::kArgs] = {static_cast<int32_t>(axis)};
  call->run = run_kernels;
  return bind<ops::Cat>(ctx, call, 0, inputs, count, &y, 1, words, ops::Cat::kArgs);
}

// ---- quantized_decomposed::dequantize_per_channel.out(input, scales, zero_points?, axis,
//      quant_min, quant_max, dtype, *, out_dtype?, out): the per-channel dequantize kernel;
//      float64 scales and int64 or missing zero points of the program's constants become
//      float32 and int32 vectors at load --------------------------------------------------

/// `t` (ExecuTorch type `type`, `n` elements) as a vector of the kernel's 4-byte type: itself
/// when it has that type, else converted at load from float64 (to float32) or int64 (to
/// int32), which needs constant data; nullptr `t`: zeros. kNotSupported for another type or
/// planned data, kBadOperatorArgs for an int64 outside int32.
Error vector_of(const PteOpContext& ctx, Tensor* t, int8_t type, bool constant, uint32_t n,
                bool to_float, Tensor** out) {
  const PteScalarType same = to_float ? PteScalarType::kFloat : PteScalarType::kInt;
  const PteScalarType wide = to_float ? PteScalarType::kDouble : PteScalarType::kLong;
  if (t != nullptr && is_type(type, same)) {
    *out = t;
    return Error::kOk;
  }
  if (t != nullptr && (!is_type(type, wide) || !constant)) return Error::kNotSupported;
  Tensor* v = ctx.allocator->allocate_array<Tensor>(1);
  uint32_t* data = ctx.allocator->allocate_array<uint32_t>(n);
  if (v == nullptr || (data == nullptr && n > 0)) return Error::kMemoryAllocationFailed;
  for (uint32_t i = 0; t != nullptr && i < n; ++i) {
    const uint8_t* at = static_cast<const uint8_t*>(t->data) + 8 * i;
    if (to_float) {
      double d;
      memcpy(&d, at, 8);
      const float f = static_cast<float>(d);
      memcpy(&data[i], &f, 4);
    } else {
      int64_t w;
      memcpy(&w, at, 8);
      if (w < INT32_MIN || w > INT32_MAX) return Error::kBadOperatorArgs;
      const int32_t k = static_cast<int32_t>(w);
      memcpy(&data[i], &k, 4);
    }
  }
  v->dtype = to_float ? ScalarType::kFloat32 : ScalarType::kInt32;
  v->rank = 1;
  v->sizes[0] = static_cast<int32_t>(n);
  v->data = data;
  v->nbytes = 4 * n;
  *out = v;
  return Error::kOk;
}

Error prepare_dequantize_per_channel(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 8 && a.count() != 9) {
    return a.fail(Error::kBadOperatorArgs, "dequantize_per_channel.out argument count", 0);
  }
  Tensor *x = nullptr, *scales = nullptr, *zps = nullptr, *y = nullptr;
  int8_t tx = 0, ts = 0, tz = 0, ty = 0;
  int64_t axis_arg = 0, qmin = 0, qmax = 0, dtype = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(a.tensor(1, &scales, &ts));
  if (!a.is_null(2)) SOCSIM_RT_TRY(a.tensor(2, &zps, &tz));
  SOCSIM_RT_TRY(a.integer(3, &axis_arg));
  SOCSIM_RT_TRY(a.integer(4, &qmin));
  SOCSIM_RT_TRY(a.integer(5, &qmax));
  SOCSIM_RT_TRY(a.integer(6, &dtype));
  if (a.count() == 9 && !a.is_null(7)) {
    int64_t out_dtype = 0;
    SOCSIM_RT_TRY(a.integer(7, &out_dtype));
    if (out_dtype != static_cast<int64_t>(PteScalarType::kFloat)) {
      return a.fail(Error::kNotSupported, "dequantize_per_channel.out out_dtype (float32)", 7);
    }
  }
  SOCSIM_RT_TRY(a.tensor(a.count() - 1, &y, &ty));
  if (!is_type(tx, PteScalarType::kChar) || !is_type(ty, PteScalarType::kFloat) ||
      dtype != static_cast<int64_t>(PteScalarType::kChar)) {
    return a.fail(Error::kDtypeMismatch, "dequantize_per_channel.out dtypes (int8 -> float32)", 0);
  }
  if (qmin < -128 || qmax > 127 || qmin > qmax) {
    return a.fail(Error::kBadOperatorArgs, "quant_min/quant_max", 4);
  }
  uint32_t axis = 0;
  if (x->rank == 0 || !axis_of(axis_arg, x->rank, &axis)) {
    return a.fail(Error::kBadOperatorArgs, "dequantize_per_channel.out axis", 3);
  }
  uint32_t outer, channels, inner;
  split_at(*x, axis, &outer, &channels, &inner);
  if (!x->same_shape(*y) || scales->numel() != channels ||
      (zps != nullptr && zps->numel() != channels)) {
    return a.fail(Error::kShapeMismatch, "dequantize_per_channel.out scales/zero_points", 1);
  }
  Tensor* in[3] = {x, nullptr, nullptr};
  Error e = vector_of(ctx, scales, ts, a.value(1).constant, channels, true, &in[1]);
  if (e != Error::kOk) {
    return a.fail(e, "dequantize_per_channel.out scales (float32, or constant float64)", 1);
  }
  e = vector_of(ctx, zps, tz, zps != nullptr && a.value(2).constant, channels, false, &in[2]);
  if (e != Error::kOk) {
    return a.fail(e, "dequantize_per_channel.out zero_points (int32, or constant int64)", 2);
  }
  const int32_t words[ops::DequantizePerChannel::kArgs] = {static_cast<int32_t>(axis)};
  return bind<ops::DequantizePerChannel>(ctx, call, 0, in, 3, &y, 1, words,
                                         ops::DequantizePerChannel::kArgs);
}

// ---- aten::hardtanh.out(self, min_val, max_val, *, out): the clamp kernel (ReLU6) ----------

Error prepare_hardtanh(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 4) return a.fail(Error::kBadOperatorArgs, "aten::hardtanh.out argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t types[2];
  double lo = 0, hi = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &types[0]));
  SOCSIM_RT_TRY(a.real(1, &lo));
  SOCSIM_RT_TRY(a.real(2, &hi));
  SOCSIM_RT_TRY(a.tensor(3, &y, &types[1]));
  if (!same_types(types, 2) || !is_type(types[0], PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "aten::hardtanh.out dtypes (float32)", 0);
  }
  if (!(lo <= hi)) return a.fail(Error::kBadOperatorArgs, "aten::hardtanh.out min/max", 1);
  const int32_t words[ops::Clamp::kArgs] = {float_word(static_cast<float>(lo)),
                                            float_word(static_cast<float>(hi))};
  call->run = run_kernels;
  return bind<ops::Clamp>(ctx, call, 0, &x, 1, &y, 1, words, ops::Clamp::kArgs);
}

// ---- aten::_native_batch_norm_legit_no_training.out(input, weight?, bias?, running_mean,
//      running_var, momentum, eps, *, out0, out1, out2): the batch norm kernel (per channel of
//      axis 1; a missing weight or bias: ones, zeros); out1 and out2 (the saved statistics
//      of training) are empty in inference and are left alone ------------------------------

Error prepare_batch_norm(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 10) {
    return a.fail(Error::kBadOperatorArgs, "_native_batch_norm_legit_no_training argument count",
                  0);
  }
  Tensor* t[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};  // x, weight, bias, mean, var
  Tensor* y = nullptr;
  int8_t types[6] = {};
  double eps = 0;
  SOCSIM_RT_TRY(a.tensor(0, &t[0], &types[0]));
  types[1] = types[2] = types[0];
  if (!a.is_null(1)) SOCSIM_RT_TRY(a.tensor(1, &t[1], &types[1]));
  if (!a.is_null(2)) SOCSIM_RT_TRY(a.tensor(2, &t[2], &types[2]));
  SOCSIM_RT_TRY(a.tensor(3, &t[3], &types[3]));
  SOCSIM_RT_TRY(a.tensor(4, &t[4], &types[4]));
  SOCSIM_RT_TRY(a.real(6, &eps));
  SOCSIM_RT_TRY(a.tensor(7, &y, &types[5]));
  if (!same_types(types, 6) || !is_type(types[0], PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "_native_batch_norm_legit_no_training dtypes", 0);
  }
  const Tensor& x = *t[0];
  if (x.rank < 2 || !x.same_shape(*y)) {
    return a.fail(Error::kShapeMismatch, "_native_batch_norm_legit_no_training out", 7);
  }
  const uint32_t channels = static_cast<uint32_t>(x.sizes[1]);
  for (uint32_t i = 1; i < 5; ++i) {
    if (t[i] != nullptr && t[i]->numel() != channels) {
      return a.fail(Error::kShapeMismatch, "_native_batch_norm_legit_no_training channels", i);
    }
  }
  const float e = static_cast<float>(eps);
  if (!(e >= 0.0f)) return a.fail(Error::kBadOperatorArgs, "batch norm eps", 6);
  if (t[1] == nullptr && (t[1] = constant_vector(*ctx.allocator, channels, 1.0f)) == nullptr) {
    return Error::kMemoryAllocationFailed;
  }
  if (t[2] == nullptr && (t[2] = constant_vector(*ctx.allocator, channels, 0.0f)) == nullptr) {
    return Error::kMemoryAllocationFailed;
  }
  const int32_t words[ops::BatchNorm::kArgs] = {float_word(e)};
  return bind<ops::BatchNorm>(ctx, call, 0, t, 5, &y, 1, words, ops::BatchNorm::kArgs);
}

// ---- aten::clamp.out(self, min?, max?, *, out): the clamp kernel (a missing bound: none) ----

Error prepare_clamp(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 4) return a.fail(Error::kBadOperatorArgs, "aten::clamp.out argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t types[2];
  double lo = -kInf, hi = kInf;
  SOCSIM_RT_TRY(a.tensor(0, &x, &types[0]));
  if (!a.is_null(1)) SOCSIM_RT_TRY(a.real(1, &lo));
  if (!a.is_null(2)) SOCSIM_RT_TRY(a.real(2, &hi));
  SOCSIM_RT_TRY(a.tensor(3, &y, &types[1]));
  if (!same_types(types, 2) || !is_type(types[0], PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "aten::clamp.out dtypes (float32)", 0);
  }
  if (!(lo <= hi)) return a.fail(Error::kNotSupported, "aten::clamp.out min > max", 1);
  const int32_t words[ops::Clamp::kArgs] = {float_word(static_cast<float>(lo)),
                                            float_word(static_cast<float>(hi))};
  call->run = run_kernels;
  return bind<ops::Clamp>(ctx, call, 0, &x, 1, &y, 1, words, ops::Clamp::kArgs);
}

// ---- aten::div.out(self, other, *, out): the div kernel (true division, broadcasting) --------

Error prepare_div(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 3) return a.fail(Error::kBadOperatorArgs, "aten::div.out argument count", 0);
  Tensor* t[3];
  int8_t types[3];
  for (uint32_t i = 0; i < 3; ++i) SOCSIM_RT_TRY(a.tensor(i, &t[i], &types[i]));
  if (!same_types(types, 3) || !is_type(types[0], PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "aten::div.out dtypes (float32)", 2);
  }
  call->run = run_kernels;
  return bind<ops::Div>(ctx, call, 0, t, 2, &t[2], 1, nullptr, 0);
}

// ---- dim_order_ops::_to_dim_order_copy.out(self, *, non_blocking, dim_order?, out): a copy
//      (the same type: view_copy) or a conversion (_to_copy's cast kernel), contiguous --------

Error prepare_to_dim_order_copy(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 4) {
    return a.fail(Error::kBadOperatorArgs, "_to_dim_order_copy argument count", 0);
  }
  Tensor *x = nullptr, *y = nullptr;
  int8_t tx = 0, ty = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(a.tensor(3, &y, &ty));
  if (!a.is_null(2)) {
    PteList order;
    SOCSIM_RT_TRY(a.int_list(2, &order));
    bool contiguous = order.count == y->rank;
    for (uint32_t i = 0; contiguous && i < order.count; ++i) contiguous = order.int_at(i) == i;
    if (!contiguous) {
      return a.fail(Error::kNotSupported, "_to_dim_order_copy dim_order (contiguous only)", 2);
    }
  }
  if (!x->same_shape(*y)) return a.fail(Error::kShapeMismatch, "_to_dim_order_copy shapes", 3);
  if (is_type(tx, PteScalarType::kLong) && is_type(ty, PteScalarType::kFloat)) {
    // e.g. an integer constant of the graph made float: the int64 values as bytes
    Tensor* bytes = nullptr;
    SOCSIM_RT_TRY(movable(ctx, x, tx, &bytes));
    call->run = run_kernels;
    return bind<ops::Int64ToFloat>(ctx, call, 0, &bytes, 1, &y, 1, nullptr, 0);
  }
  if (!runtime_readable(tx) || !runtime_readable(ty)) {
    return a.fail(Error::kDtypeMismatch, "_to_dim_order_copy dtypes", 0);
  }
  call->run = run_kernels;
  if (tx == ty) return bind<ops::ViewCopy>(ctx, call, 0, &x, 1, &y, 1, nullptr, 0);
  return bind<ops::ToCopy>(ctx, call, 0, &x, 1, &y, 1, nullptr, 0);
}

// ---- aten::gelu.out(self, *, approximate, out): the gelu kernel (the erf form) ---------------

Error prepare_gelu(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 3) return a.fail(Error::kBadOperatorArgs, "aten::gelu.out argument count", 0);
  const PteValue& approximate = a.value(1);
  if (approximate.kind != PteValueKind::kString) {
    return a.fail(Error::kBadOperatorArgs, "aten::gelu.out approximate (a String)", 1);
  }
  if (approximate.list.count != 4 || memcmp(approximate.list.data, "none", 4) != 0) {
    return a.fail(Error::kNotSupported, "aten::gelu.out approximate (only none)", 1);
  }
  Tensor* t[2];
  int8_t types[2];
  SOCSIM_RT_TRY(a.tensor(0, &t[0], &types[0]));
  SOCSIM_RT_TRY(a.tensor(2, &t[1], &types[1]));
  if (!same_types(types, 2) || !is_type(types[0], PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "aten::gelu.out dtypes (float32)", 0);
  }
  call->run = run_kernels;
  return bind<ops::Gelu>(ctx, call, 0, t, 1, &t[1], 1, nullptr, 0);
}

// ---- aten::avg_pool2d.out(self, kernel_size, stride, padding, ceil_mode, count_include_pad,
//      divisor_override?, *, out): the average pooling kernel ---------------------------------

Error prepare_avg_pool(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 8) return a.fail(Error::kBadOperatorArgs, "avg_pool2d argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t types[2];
  PteList kernel, stride, padding;
  bool ceil_mode = false, include_pad = true;
  SOCSIM_RT_TRY(a.tensor(0, &x, &types[0]));
  SOCSIM_RT_TRY(a.int_list(1, &kernel));
  SOCSIM_RT_TRY(a.int_list(2, &stride));
  SOCSIM_RT_TRY(a.int_list(3, &padding));
  SOCSIM_RT_TRY(a.boolean(4, &ceil_mode));
  SOCSIM_RT_TRY(a.boolean(5, &include_pad));
  SOCSIM_RT_TRY(a.tensor(7, &y, &types[1]));
  if (!same_types(types, 2) || !is_type(types[0], PteScalarType::kFloat)) {
    return a.fail(Error::kDtypeMismatch, "aten::avg_pool2d.out dtypes (float32)", 0);
  }
  if (!a.is_null(6)) {
    return a.fail(Error::kNotSupported, "aten::avg_pool2d.out divisor_override", 6);
  }
  int32_t k[2], s[2], p[2];
  if (!pair_of(kernel, 1, nullptr, k)) {
    return a.fail(Error::kBadOperatorArgs, "aten::avg_pool2d.out kernel_size", 1);
  }
  if (!pair_of(stride, 1, k, s)) {
    return a.fail(Error::kBadOperatorArgs, "aten::avg_pool2d.out stride", 2);
  }
  if (!pair_of(padding, 0, nullptr, p) || p[0] * 2 > k[0] || p[1] * 2 > k[1]) {
    return a.fail(Error::kBadOperatorArgs, "aten::avg_pool2d.out padding", 3);
  }
  if (x->rank != 4 || y->rank != 4) {
    return a.fail(Error::kShapeMismatch, "aten::avg_pool2d.out shapes (NCHW)", 7);
  }
  const int32_t words[ops::AvgPool2d::kArgs] = {
      k[0], k[1], s[0], s[1], p[0], p[1], p[0], p[1], ceil_mode ? 1 : 0, include_pad ? 1 : 0};
  call->run = run_kernels;
  return bind<ops::AvgPool2d>(ctx, call, 0, &x, 1, &y, 1, words, ops::AvgPool2d::kArgs);
}

// ---- aten::_adaptive_avg_pool2d.out(self, output_size, *, out): the adaptive average
//      pooling kernel (the output's last two axes are output_size) ---------------------------

Error prepare_adaptive_avg_pool(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  Tensor *x = nullptr, *y = nullptr;
  PteList size;
  SOCSIM_RT_TRY(tensor_list_out(a,
                                {"_adaptive_avg_pool2d argument count",
                                 "aten::_adaptive_avg_pool2d.out dtypes (float32)"},
                                true, &x, &size, &y));
  if ((x->rank != 3 && x->rank != 4) || y->rank != x->rank) {
    return a.fail(Error::kShapeMismatch, "aten::_adaptive_avg_pool2d.out (CHW or NCHW)", 2);
  }
  if (size.count != 2 || size.int_at(0) != y->sizes[y->rank - 2] ||
      size.int_at(1) != y->sizes[y->rank - 1]) {
    return a.fail(Error::kShapeMismatch, "aten::_adaptive_avg_pool2d.out output_size", 1);
  }
  return bind<ops::AdaptiveAvgPool2dWindows>(ctx, call, 0, &x, 1, &y, 1, nullptr, 0);
}

// ---- aten::as_strided_copy.out(self, size, stride, storage_offset?, *, out): the strided
//      copy kernel, self given as a view of the output's rank over its storage ------------

Error prepare_as_strided(const PteOpContext& ctx, const Args& a, PteOpCall* call) {
  if (a.count() != 5) return a.fail(Error::kBadOperatorArgs, "as_strided_copy argument count", 0);
  Tensor *x = nullptr, *y = nullptr;
  int8_t tx = 0, ty = 0;
  PteList size, stride;
  int64_t offset = 0;
  SOCSIM_RT_TRY(a.tensor(0, &x, &tx));
  SOCSIM_RT_TRY(a.int_list(1, &size));
  SOCSIM_RT_TRY(a.int_list(2, &stride));
  if (!a.is_null(3)) SOCSIM_RT_TRY(a.integer(3, &offset));
  SOCSIM_RT_TRY(a.tensor(4, &y, &ty));
  if (tx != ty || pte_element_size(tx) == 0) {
    return a.fail(Error::kDtypeMismatch, "aten::as_strided_copy.out dtypes", 0);
  }
  if (y->rank == 0) return a.fail(Error::kNotSupported, "aten::as_strided_copy.out (scalar)", 4);
  bool same = size.count == y->rank;
  for (uint32_t k = 0; same && k < size.count; ++k) same = size.int_at(k) == y->sizes[k];
  if (!same) return a.fail(Error::kShapeMismatch, "aten::as_strided_copy.out size", 1);
  if (stride.count != y->rank) {
    return a.fail(Error::kBadOperatorArgs, "aten::as_strided_copy.out stride", 2);
  }
  // Every element read must lie in self's storage (64-bit sums: no overflow).
  int64_t last = offset;
  int32_t words[1 + kMaxRank + 1];
  words[0] = 0;
  for (uint32_t k = 0; k < y->rank; ++k) {
    const int64_t s = stride.int_at(k);
    if (s < 0 || s > 0x7FFFFFFF) {
      return a.fail(Error::kBadOperatorArgs, "aten::as_strided_copy.out stride", 2);
    }
    if (y->sizes[k] > 0) last += (y->sizes[k] - 1) * s;
    words[1 + k] = static_cast<int32_t>(s);
  }
  if (offset < 0 || (y->numel() > 0 && last >= static_cast<int64_t>(x->numel()))) {
    return a.fail(Error::kBadOperatorArgs, "aten::as_strided_copy.out (outside self)", 3);
  }
  words[0] = static_cast<int32_t>(offset);
  // self as [numel, 1, ...] of the output's rank: the kernel reads its flat storage.
  int32_t sizes[kMaxRank];
  for (uint32_t k = 0; k < y->rank; ++k) sizes[k] = k == 0 ? static_cast<int32_t>(x->numel()) : 1;
  Tensor* flat = view_of(ctx, *x, x->dtype, y->rank, sizes);
  if (flat == nullptr) return Error::kMemoryAllocationFailed;
  Tensor *vx = nullptr, *vy = nullptr;
  if (movable(ctx, flat, tx, &vx) != Error::kOk || movable(ctx, y, ty, &vy) != Error::kOk) {
    return a.fail(Error::kNotSupported, "aten::as_strided_copy.out (rank with the bytes)", 0);
  }
  uint32_t count = 1 + y->rank;
  if (vy->rank > y->rank) {  // the bytes of a wide element: one more axis, stride 1
    const int32_t es = vy->sizes[y->rank];
    for (uint32_t k = 0; k < count; ++k) words[k] *= es;
    words[count++] = 1;
  }
  return bind<ops::AsStridedCopy>(ctx, call, 0, &vx, 1, &vy, 1, words, count);
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
    {"aten::add", "out", "aten::add.out", prepare_alpha_binary<ops::Add>},
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
    {"aten::unsqueeze_copy", "out", "aten::unsqueeze_copy.out", prepare_unsqueeze},
    {"aten::squeeze_copy", "dims_out", "aten::squeeze_copy.dims_out", prepare_squeeze_dims},
    {"dim_order_ops::_clone_dim_order", "out", "dim_order_ops::_clone_dim_order.out",
     prepare_clone_dim_order},
    {"aten::select_copy", "int_out", "aten::select_copy.int_out", prepare_select},
    {"aten::mul", "Scalar_out", "aten::mul.Scalar_out", prepare_mul_scalar},
    {"aten::expand_copy", "out", "aten::expand_copy.out", prepare_expand},
    {"aten::bmm", "out", "aten::bmm.out", prepare_bmm},
    {"aten::_softmax", "out", "aten::_softmax.out", prepare_softmax},
    {"aten::eq", "Scalar_out", "aten::eq.Scalar_out", prepare_eq_scalar},
    {"aten::logical_not", "out", "aten::logical_not.out", prepare_logical_not},
    {"aten::any", "out", "aten::any.out", prepare_any},
    {"aten::full_like", "out", "aten::full_like.out", prepare_full_like},
    {"aten::full", "out", "aten::full.out", prepare_full},
    {"aten::where", "self_out", "aten::where.self_out", prepare_where},
    {"aten::native_layer_norm", "out", "aten::native_layer_norm.out", prepare_layer_norm, 3},
    {"aten::slice_copy", "Tensor_out", "aten::slice_copy.Tensor_out", prepare_slice},
    {"aten::split_with_sizes_copy", "out", "aten::split_with_sizes_copy.out", prepare_split},
    {"aten::sigmoid", "out", "aten::sigmoid.out", prepare_unary<ops::Sigmoid>},
    {"aten::tanh", "out", "aten::tanh.out", prepare_unary<ops::Tanh>},
    {"aten::mul", "out", "aten::mul.out", prepare_alpha_binary<ops::Mul>},
    {"aten::sub", "out", "aten::sub.out", prepare_alpha_binary<ops::Sub>},
    {"aten::cat", "out", "aten::cat.out", prepare_cat},
    {"quantized_decomposed::dequantize_per_channel", "out",
     "quantized_decomposed::dequantize_per_channel.out", prepare_dequantize_per_channel},
    {"aten::hardtanh", "out", "aten::hardtanh.out", prepare_hardtanh},
    {"aten::_native_batch_norm_legit_no_training", "out",
     "aten::_native_batch_norm_legit_no_training.out", prepare_batch_norm, 3},
    {"aten::clamp", "out", "aten::clamp.out", prepare_clamp},
    {"aten::div", "out", "aten::div.out", prepare_div},
    {"dim_order_ops::_to_dim_order_copy", "out", "dim_order_ops::_to_dim_order_copy.out",
     prepare_to_dim_order_copy},
    {"aten::gelu", "out", "aten::gelu.out", prepare_gelu},
    {"aten::avg_pool2d", "out", "aten::avg_pool2d.out", prepare_avg_pool},
    {"aten::_adaptive_avg_pool2d", "out", "aten::_adaptive_avg_pool2d.out",
     prepare_adaptive_avg_pool},
    {"aten::as_strided_copy", "out", "aten::as_strided_copy.out", prepare_as_strided},
};
constexpr uint32_t kOperatorCount = sizeof(kOperators) / sizeof(kOperators[0]);

bool equals(const char* text, uint32_t length, const char* literal) {
  return text != nullptr && strlen(literal) == length && memcmp(text, literal, length) == 0;
}

}  // namespace

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
    const PteValue& ov = ctx.values[outs[0]];
    if (op.outputs == 1 && rv.kind == PteValueKind::kTensorList &&
        ov.kind == PteValueKind::kTensorList && rv.list.count == ov.list.count) {
      // An out TensorList (split): the return value lists the same tensors.
      ret_ok = true;
      for (uint32_t i = 0; i < rv.list.count; ++i) {
        ret_ok = ret_ok && rv.list.index_at(i) == ov.list.index_at(i);
      }
    }
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
    const KernelArgs* k = call->calls > 0 ? &call->args[0] : nullptr;
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
