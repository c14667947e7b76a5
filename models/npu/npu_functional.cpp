#include "models/npu/npu_functional.h"

#include <initializer_list>

namespace socsim {

using namespace npu;

namespace {

// ---- the kernels' integer arithmetic (firmware/kernels/kernel_util.h) ----------------------

int64_t round_shift(int64_t x, int32_t n) { return (x + (int64_t{1} << (n - 1))) >> n; }

int32_t requantize(int32_t acc, int32_t m, int32_t n) {
  return static_cast<int32_t>(round_shift(static_cast<int64_t>(acc) * m, n));
}

int64_t div_round(int64_t num, int64_t den) {
  const int64_t a = 2 * num + den;
  const int64_t b = 2 * den;
  int64_t q = a / b;
  if ((a % b != 0) && (a < 0)) --q;
  return q;
}

int32_t clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

bool valid_multiplier(int32_t m, int32_t n) { return m >= 0 && n >= 1 && n <= 62; }

bool valid_bounds(int32_t lo, int32_t hi) { return lo >= -128 && hi <= 127 && lo <= hi; }

int32_t window_out_size(int32_t in, int32_t kernel, int32_t stride, int32_t pad0, int32_t pad1,
                        int32_t dilation, bool ceil_mode) {
  if (in < 1 || kernel < 1 || stride < 1 || dilation < 1 || pad0 < 0 || pad1 < 0) return -1;
  const int32_t span = dilation * (kernel - 1) + 1;
  const int32_t room = in + pad0 + pad1 - span;
  if (room < 0) return -1;
  int32_t out = (ceil_mode ? (room + stride - 1) / stride : room / stride) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad0) --out;
  return out;
}

int32_t s(uint32_t v) { return static_cast<int32_t>(v); }

uint64_t numel(const uint32_t* shape) {
  return uint64_t{shape[0]} * shape[1] * shape[2] * shape[3];
}

bool same_shape(const uint32_t* a, const uint32_t* b) {
  return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
}

constexpr uint32_t kMaxDim = 1u << 16;

// ---- per-operator checks -------------------------------------------------------------------

NpuError check_conv(const LayerDescriptor& d) {
  const uint32_t* x = d.in_shape;
  const uint32_t* w = d.in1_shape;
  const uint32_t* y = d.out_shape;
  const int32_t* a = d.args;
  if (d.arg_count != 13) return kNpuBadArgs;
  const int32_t groups = a[8];
  if (groups < 1 || s(x[1]) % groups != 0 || s(y[1]) % groups != 0) return kNpuBadShape;
  if (x[0] != y[0] || w[0] != y[1] || s(w[1]) != s(x[1]) / groups) return kNpuBadShape;
  if (window_out_size(s(x[2]), s(w[2]), a[0], a[2], a[4], a[6], false) != s(y[2]) ||
      window_out_size(s(x[3]), s(w[3]), a[1], a[3], a[5], a[7], false) != s(y[3])) {
    return kNpuBadShape;
  }
  return valid_bounds(a[11], a[12]) ? kNpuOk : kNpuBadArgs;
}

NpuError check_linear(const LayerDescriptor& d) {
  const uint32_t* x = d.in_shape;
  const uint32_t* w = d.in1_shape;
  const uint32_t* y = d.out_shape;
  if (d.arg_count != 4) return kNpuBadArgs;
  if (x[2] != 1 || x[3] != 1 || y[2] != 1 || y[3] != 1 || w[2] != 1 || w[3] != 1) {
    return kNpuBadShape;
  }
  if (x[0] != y[0] || w[0] != y[1] || w[1] != x[1]) return kNpuBadShape;
  return valid_bounds(d.args[2], d.args[3]) ? kNpuOk : kNpuBadArgs;
}

NpuError check_binary(const LayerDescriptor& d) {
  if (!same_shape(d.in_shape, d.in1_shape) || !same_shape(d.in_shape, d.out_shape)) {
    return kNpuBadShape;
  }
  if (d.op == kOpMul) {
    if (d.arg_count != 7 || !valid_multiplier(d.args[2], d.args[3])) return kNpuBadArgs;
    return kNpuOk;  // the mul kernel does not check its bounds; the compiler keeps them valid
  }
  if (d.arg_count != 8 || !valid_multiplier(d.args[1], d.args[4]) ||
      !valid_multiplier(d.args[3], d.args[4]) || !valid_bounds(d.args[6], d.args[7])) {
    return kNpuBadArgs;
  }
  return kNpuOk;
}

NpuError check_pool(const LayerDescriptor& d) {
  const uint32_t* x = d.in_shape;
  const uint32_t* y = d.out_shape;
  const int32_t* a = d.args;
  if (x[0] != y[0] || x[1] != y[1]) return kNpuBadShape;
  if (d.op == kOpGlobalAvgPool2d) {
    if (d.arg_count != 4 || y[2] != 1 || y[3] != 1) return d.arg_count != 4 ? kNpuBadArgs : kNpuBadShape;
    return a[2] >= 0 && a[3] >= 0 && a[3] <= 30 ? kNpuOk : kNpuBadArgs;
  }
  if (d.arg_count != (d.op == kOpMaxPool2d ? 9u : 14u)) return kNpuBadArgs;
  if (a[8] != 0 && a[8] != 1) return kNpuBadArgs;
  if (window_out_size(s(x[2]), a[0], a[2], a[4], a[6], 1, a[8] != 0) != s(y[2]) ||
      window_out_size(s(x[3]), a[1], a[3], a[5], a[7], 1, a[8] != 0) != s(y[3])) {
    return kNpuBadShape;
  }
  if (d.op == kOpAvgPool2d && (a[12] < 0 || a[13] < 0 || a[13] > 30)) return kNpuBadArgs;
  return kNpuOk;
}

// ---- operators -----------------------------------------------------------------------------

NpuError run_conv(const LayerDescriptor& d, const NpuOperands& o) {
  const int32_t* a = d.args;
  const int32_t batch = s(d.in_shape[0]), in_c = s(d.in_shape[1]), in_h = s(d.in_shape[2]),
                in_w = s(d.in_shape[3]);
  const int32_t out_c = s(d.out_shape[1]), out_h = s(d.out_shape[2]), out_w = s(d.out_shape[3]);
  const int32_t k_h = s(d.in1_shape[2]), k_w = s(d.in1_shape[3]);
  const int32_t groups = a[8], cin_g = in_c / groups, cout_g = out_c / groups;
  for (int32_t c = 0; c < out_c; ++c) {
    if (!valid_multiplier(o.requant[2 * c], o.requant[2 * c + 1])) return kNpuBadArgs;
  }
  const int32_t zp_in = a[9], zp_out = a[10], lo = a[11], hi = a[12];
  for (int32_t n = 0; n < batch; ++n) {
    for (int32_t oc = 0; oc < out_c; ++oc) {
      const int32_t ic0 = (oc / cout_g) * cin_g;
      const int8_t* wk = o.weights + oc * cin_g * k_h * k_w;
      for (int32_t oy = 0; oy < out_h; ++oy) {
        for (int32_t ox = 0; ox < out_w; ++ox) {
          int32_t acc = o.bias[oc];
          for (int32_t c = 0; c < cin_g; ++c) {
            const int8_t* xc = o.input + ((n * in_c + ic0 + c) * in_h) * in_w;
            const int8_t* wc = wk + c * k_h * k_w;
            for (int32_t ky = 0; ky < k_h; ++ky) {
              const int32_t iy = oy * a[0] - a[2] + ky * a[6];
              if (iy < 0 || iy >= in_h) continue;
              for (int32_t kx = 0; kx < k_w; ++kx) {
                const int32_t ix = ox * a[1] - a[3] + kx * a[7];
                if (ix < 0 || ix >= in_w) continue;
                acc += (static_cast<int32_t>(xc[iy * in_w + ix]) - zp_in) * wc[ky * k_w + kx];
              }
            }
          }
          const int32_t v = requantize(acc, o.requant[2 * oc], o.requant[2 * oc + 1]) + zp_out;
          o.output[((n * out_c + oc) * out_h + oy) * out_w + ox] =
              static_cast<int8_t>(clamp(v, lo, hi));
        }
      }
    }
  }
  return kNpuOk;
}

NpuError run_linear(const LayerDescriptor& d, const NpuOperands& o) {
  const uint32_t rows = d.in_shape[0], in = d.in_shape[1], out = d.out_shape[1];
  for (uint32_t c = 0; c < out; ++c) {
    if (!valid_multiplier(o.requant[2 * c], o.requant[2 * c + 1])) return kNpuBadArgs;
  }
  const int32_t zp_in = d.args[0], zp_out = d.args[1], lo = d.args[2], hi = d.args[3];
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < out; ++c) {
      int32_t acc = o.bias[c];
      const int8_t* xr = o.input + r * in;
      const int8_t* wr = o.weights + c * in;
      for (uint32_t i = 0; i < in; ++i) acc += (static_cast<int32_t>(xr[i]) - zp_in) * wr[i];
      const int32_t v = requantize(acc, o.requant[2 * c], o.requant[2 * c + 1]) + zp_out;
      o.output[r * out + c] = static_cast<int8_t>(clamp(v, lo, hi));
    }
  }
  return kNpuOk;
}

NpuError run_binary(const LayerDescriptor& d, const NpuOperands& o) {
  const uint64_t count = numel(d.out_shape);
  const int32_t* g = d.args;
  if (d.op == kOpMul) {
    const int32_t zp_a = g[0], zp_b = g[1], m = g[2], n = g[3], zp_out = g[4];
    for (uint64_t i = 0; i < count; ++i) {
      const int32_t acc = (o.input[i] - zp_a) * (o.weights[i] - zp_b);
      o.output[i] = static_cast<int8_t>(clamp(requantize(acc, m, n) + zp_out, g[5], g[6]));
    }
    return kNpuOk;
  }
  const int32_t zp_a = g[0], m_a = g[1], zp_b = g[2], m_b = g[3], n = g[4], zp_out = g[5];
  for (uint64_t i = 0; i < count; ++i) {
    const int64_t acc = static_cast<int64_t>(o.input[i] - zp_a) * m_a +
                        static_cast<int64_t>(o.weights[i] - zp_b) * m_b;
    o.output[i] = static_cast<int8_t>(
        clamp(static_cast<int32_t>(round_shift(acc, n)) + zp_out, g[6], g[7]));
  }
  return kNpuOk;
}

NpuError run_pool(const LayerDescriptor& d, const NpuOperands& o) {
  const int32_t* a = d.args;
  const int32_t planes = s(d.in_shape[0] * d.in_shape[1]);
  const int32_t in_h = s(d.in_shape[2]), in_w = s(d.in_shape[3]);
  if (d.op == kOpGlobalAvgPool2d) {
    const int32_t area = in_h * in_w;
    for (int32_t p = 0; p < planes; ++p) {
      int32_t sum = 0;
      for (int32_t i = 0; i < area; ++i) sum += o.input[p * area + i] - a[0];
      const int64_t v = div_round(static_cast<int64_t>(sum) * a[2], int64_t{area} << a[3]);
      o.output[p] = static_cast<int8_t>(clamp(static_cast<int32_t>(v) + a[1], -128, 127));
    }
    return kNpuOk;
  }
  const int32_t out_h = s(d.out_shape[2]), out_w = s(d.out_shape[3]);
  const int32_t k_h = a[0], k_w = a[1], s_h = a[2], s_w = a[3], pad_t = a[4], pad_l = a[5],
                pad_b = a[6], pad_r = a[7];
  for (int32_t p = 0; p < planes; ++p) {
    const int8_t* xp = o.input + p * in_h * in_w;
    for (int32_t oy = 0; oy < out_h; ++oy) {
      for (int32_t ox = 0; ox < out_w; ++ox) {
        const int32_t ys = oy * s_h - pad_t, xs = ox * s_w - pad_l;
        const int32_t ye = ys + k_h, xe = xs + k_w;
        const int32_t ye_pad = ye < in_h + pad_b ? ye : in_h + pad_b;
        const int32_t xe_pad = xe < in_w + pad_r ? xe : in_w + pad_r;
        const int32_t y0 = ys < 0 ? 0 : ys, x0 = xs < 0 ? 0 : xs;
        const int32_t y1 = ye < in_h ? ye : in_h, x1 = xe < in_w ? xe : in_w;
        int8_t* dst = o.output + (p * out_h + oy) * out_w + ox;
        if (d.op == kOpMaxPool2d) {
          if (y0 >= y1 || x0 >= x1) return kNpuBadShape;
          int8_t best = xp[y0 * in_w + x0];
          for (int32_t iy = y0; iy < y1; ++iy) {
            for (int32_t ix = x0; ix < x1; ++ix) {
              if (xp[iy * in_w + ix] > best) best = xp[iy * in_w + ix];
            }
          }
          *dst = best;
          continue;
        }
        const int32_t count = a[9] != 0 ? (ye_pad - ys) * (xe_pad - xs) : (y1 - y0) * (x1 - x0);
        if (count <= 0) return kNpuBadShape;
        int32_t sum = 0;
        for (int32_t iy = y0; iy < y1; ++iy) {
          for (int32_t ix = x0; ix < x1; ++ix) sum += xp[iy * in_w + ix] - a[10];
        }
        const int64_t v = div_round(static_cast<int64_t>(sum) * a[12], int64_t{count} << a[13]);
        *dst = static_cast<int8_t>(clamp(static_cast<int32_t>(v) + a[11], -128, 127));
      }
    }
  }
  return kNpuOk;
}

}  // namespace

NpuError validate_layer(const LayerDescriptor& d) {
  if (d.op < kOpConv2d || d.op > kOpGlobalAvgPool2d) return kNpuBadOpcode;
  if (d.dtype != kDtypeInt8) return kNpuBadDtype;
  if (d.arg_count > kMaxArgs) return kNpuBadArgs;
  for (const uint32_t* shape : {d.in_shape, d.out_shape}) {
    for (int i = 0; i < 4; ++i) {
      if (shape[i] == 0 || shape[i] > kMaxDim) return kNpuBadShape;
    }
  }
  if (numel(d.in_shape) > (1u << 28) || numel(d.out_shape) > (1u << 28)) return kNpuBadShape;
  switch (d.op) {
    case kOpConv2d: return check_conv(d);
    case kOpLinear: return check_linear(d);
    case kOpAdd:
    case kOpMul: return check_binary(d);
    default: return check_pool(d);
  }
}

NpuOperandSizes operand_sizes(const LayerDescriptor& d) {
  NpuOperandSizes sizes;
  sizes.bytes[kAddrInput] = numel(d.in_shape);
  sizes.bytes[kAddrOutput] = numel(d.out_shape);
  if (d.op == kOpConv2d || d.op == kOpLinear) {
    sizes.bytes[kAddrWeights] = numel(d.in1_shape);
    sizes.bytes[kAddrBias] = 4ull * d.out_shape[1];
    sizes.bytes[kAddrRequant] = 8ull * d.out_shape[1];
  } else if (d.op == kOpAdd || d.op == kOpMul) {
    sizes.bytes[kAddrWeights] = numel(d.in1_shape);
  }
  return sizes;
}

uint64_t layer_macs(const LayerDescriptor& d) {
  if (d.op == kOpConv2d) {
    return numel(d.out_shape) * d.in1_shape[1] * d.in1_shape[2] * d.in1_shape[3];
  }
  if (d.op == kOpLinear) return uint64_t{d.out_shape[0]} * d.out_shape[1] * d.in_shape[1];
  return 0;
}

NpuError execute_layer(const LayerDescriptor& d, const NpuOperands& ops) {
  switch (d.op) {
    case kOpConv2d: return run_conv(d, ops);
    case kOpLinear: return run_linear(d, ops);
    case kOpAdd:
    case kOpMul: return run_binary(d, ops);
    default: return run_pool(d, ops);
  }
}

}  // namespace socsim
