// A conv layer descriptor for the NPU tests: NCHW int8, a k x k kernel with "same" padding,
// requantised output clamped to [act_min, 127]. Operand addresses are left 0.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "firmware/abi/generated/npu_descriptor.h"

namespace socsim {

inline npu::LayerDescriptor conv_layer(uint32_t cin, uint32_t h, uint32_t w, uint32_t cout,
                                       uint32_t k, uint32_t stride = 1, uint32_t groups = 1,
                                       int32_t act_min = -128) {
  npu::LayerDescriptor d;
  std::memset(&d, 0, sizeof d);
  d.op = npu::kOpConv;
  d.dtype = npu::kDtypeInt8;
  const uint32_t pad = k / 2;
  const uint32_t ho = (h + 2 * pad - k) / stride + 1, wo = (w + 2 * pad - k) / stride + 1;
  const uint32_t in[4] = {1, cin, h, w}, wt[4] = {cout, cin / groups, k, k},
                 out[4] = {1, cout, ho, wo};
  std::memcpy(d.in_shape, in, sizeof in);
  std::memcpy(d.in1_shape, wt, sizeof wt);
  std::memcpy(d.out_shape, out, sizeof out);
  const int32_t p = static_cast<int32_t>(pad), s = static_cast<int32_t>(stride);
  const int32_t args[13] = {s, s, p, p, p, p, 1, 1, static_cast<int32_t>(groups), 0, 0,
                            act_min, 127};
  std::memcpy(d.args, args, sizeof args);
  d.arg_count = 13;
  return d;
}

/// A conv layer as a SCALE-Sim topology row gives it: an ifmap of h x w already padded,
/// kh x kw filters, `stride`, outputs ceil((H - K + S) / S) (SCALE-Sim's rounding: the
/// bottom and right are padded so the last window fits); a depthwise layer has `c`
/// channels and as many outputs, otherwise `m` filters.
inline npu::LayerDescriptor scalesim_conv_layer(uint32_t h, uint32_t w, uint32_t kh, uint32_t kw,
                                                uint32_t c, uint32_t m, uint32_t stride,
                                                bool depthwise) {
  const uint32_t cout = depthwise ? c : m, groups = depthwise ? c : 1;
  const uint32_t ho = (h - kh + stride - 1) / stride + 1;
  const uint32_t wo = (w - kw + stride - 1) / stride + 1;
  npu::LayerDescriptor d;
  std::memset(&d, 0, sizeof d);
  d.op = npu::kOpConv;
  d.dtype = npu::kDtypeInt8;
  const uint32_t in[4] = {1, c, h, w}, wt[4] = {cout, c / groups, kh, kw},
                 out[4] = {1, cout, ho, wo};
  std::memcpy(d.in_shape, in, sizeof in);
  std::memcpy(d.in1_shape, wt, sizeof wt);
  std::memcpy(d.out_shape, out, sizeof out);
  const int32_t s = static_cast<int32_t>(stride);
  const int32_t pad_b = static_cast<int32_t>((ho - 1) * stride + kh - h);
  const int32_t pad_r = static_cast<int32_t>((wo - 1) * stride + kw - w);
  // stride h/w, pad top/left/bottom/right, dilation h/w, groups, zero points, bounds
  const int32_t args[13] = {s, s, 0, 0, pad_b, pad_r, 1, 1, static_cast<int32_t>(groups),
                            0, 0, -128, 127};
  std::memcpy(d.args, args, sizeof args);
  d.arg_count = 13;
  return d;
}

/// A descriptor (int8) of `op` with the three shapes (`in1` empty: none) and arguments.
inline npu::LayerDescriptor layer_descriptor(uint8_t op, std::vector<uint32_t> in,
                                             std::vector<uint32_t> in1, std::vector<uint32_t> out,
                                             std::vector<int32_t> args) {
  npu::LayerDescriptor d;
  std::memset(&d, 0, sizeof d);
  d.op = op;
  d.dtype = npu::kDtypeInt8;
  for (int i = 0; i < 4; ++i) {
    d.in_shape[i] = in[i];
    d.in1_shape[i] = in1.empty() ? 0 : in1[i];
    d.out_shape[i] = out[i];
  }
  d.arg_count = static_cast<uint8_t>(args.size());
  for (size_t i = 0; i < args.size(); ++i) d.args[i] = args[i];
  return d;
}

/// An elementwise layer descriptor (int8): opcode `op`, input and output of `shape`, the
/// second operand's shape `in1` (the other input of add/mul, a lookup's table); no arguments.
inline npu::LayerDescriptor elementwise_layer(uint8_t op, const uint32_t (&shape)[4],
                                              const uint32_t (&in1)[4]) {
  npu::LayerDescriptor d;
  std::memset(&d, 0, sizeof d);
  d.op = op;
  d.dtype = npu::kDtypeInt8;
  std::memcpy(d.in_shape, shape, sizeof shape);
  std::memcpy(d.in1_shape, in1, sizeof in1);
  std::memcpy(d.out_shape, shape, sizeof shape);
  return d;
}

}  // namespace socsim
