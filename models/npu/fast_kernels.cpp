// The GEMM: A holds one row per output channel (a group's weights in (ky, kx, c) order), B one
// row per output pixel (its receptive field in the same order: input minus zp_in, 0 for
// padding). Both are int16, every row padded with zeros to a multiple of kDepthAlign values,
// so that the dot products have no remainder loop and int16 x int16 -> int32 pairs map onto the
// vector multiply-add instructions (pmaddwd and its wider successors). A 1x1 convolution needs
// no im2col: B's rows are the pixels of the channels-last input copy.
#include "models/npu/fast_kernels.h"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "firmware/kernels/arithmetic.h"

namespace socsim::npu_fast {
namespace {

// The loops that carry the arithmetic are compiled once per x86-64 vector level; the loader
// picks the best one the host supports (GCC function multi-versioning, an ifunc).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SOCSIM_VECTOR_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define SOCSIM_VECTOR_CLONES
#endif
#define SOCSIM_ALWAYS_INLINE inline __attribute__((always_inline))

constexpr size_t kDepthAlign = 32;  // int16 values: one 512-bit vector
constexpr size_t kBlockRows = 4;    // A rows (output channels) of one block of dot products
constexpr size_t kBlockCols = 4;    // B rows (pixels) of one block
constexpr size_t kTileCols = 64;    // B rows of one tile: it stays in cache while A passes
constexpr size_t kDirectRows = 16;  // fully connected layers of fewer rows: weights in place

size_t round_up(size_t v, size_t m) {
  return (v + m - 1) / m * m;
}

size_t uz(int32_t v) {
  return static_cast<size_t>(v);
}

// ---- accumulation ---------------------------------------------------------------------------

/// c[i * ldc + j] = sum_k a[i * a_stride + k] * b[j][k] for i < kBlockRows, j < kCols, k <
/// depth; A int16 (packed) or int8 (weights read in place).
template <size_t kCols, typename TA>
SOCSIM_ALWAYS_INLINE void dot_block(const TA* a, size_t a_stride, const int16_t* const* b,
                                    size_t depth, int32_t* c, size_t ldc) {
  int32_t acc[kBlockRows * kCols] = {};
  const int16_t* bj[kCols];
  for (size_t j = 0; j < kCols; ++j) bj[j] = b[j];
  for (size_t k = 0; k < depth; ++k) {
#pragma GCC unroll 4
    for (size_t i = 0; i < kBlockRows; ++i) {
#pragma GCC unroll 4
      for (size_t j = 0; j < kCols; ++j) {
        acc[i * kCols + j] += int32_t{a[i * a_stride + k]} * bj[j][k];
      }
    }
  }
  for (size_t i = 0; i < kBlockRows; ++i) {
    for (size_t j = 0; j < kCols; ++j) c[i * ldc + j] = acc[i * kCols + j];
  }
}

/// c[i * cols + j] = sum_k a[i * a_stride + k] * b[j][k] for i < rows (a multiple of
/// kBlockRows), j < cols, k < depth.
template <typename TA>
SOCSIM_ALWAYS_INLINE void dot_rows(const TA* a, size_t a_stride, size_t rows,
                                   const int16_t* const* b, size_t cols, size_t depth, int32_t* c) {
  for (size_t i = 0; i < rows; i += kBlockRows) {
    const TA* ai = a + i * a_stride;
    int32_t* ci = c + i * cols;
    size_t j = 0;
    for (; j + kBlockCols <= cols; j += kBlockCols) {
      dot_block<kBlockCols>(ai, a_stride, b + j, depth, ci + j, cols);
    }
    for (; j < cols; ++j) dot_block<1>(ai, a_stride, b + j, depth, ci + j, cols);
  }
}

/// dot_rows of a packed int16 panel (`depth` values per row).
SOCSIM_VECTOR_CLONES
void dot_products(const int16_t* a, size_t rows, const int16_t* const* b, size_t cols, size_t depth,
                  int32_t* c) {
  dot_rows(a, depth, rows, b, cols, depth, c);
}

/// dot_rows of int8 rows in place (a fully connected layer's weights, `depth` per row).
SOCSIM_VECTOR_CLONES
void dot_products_i8(const int8_t* a, size_t rows, const int16_t* const* b, size_t cols,
                     size_t depth, int32_t* c) {
  dot_rows(a, depth, rows, b, cols, depth, c);
}

/// The sums of a depthwise convolution over one padded plane (`cols` values per row):
/// acc[oy * out_w + ox] = sum w[ky][kx] * plane[(oy sh + ky dh) cols + ox sw + kx dw].
struct PlaneWindows {
  size_t out_h, out_w, k_h, k_w, s_h, s_w, d_h, d_w;
};

template <size_t kStride>
SOCSIM_ALWAYS_INLINE void add_scaled_row(int32_t* row, const int16_t* src, int32_t weight, size_t n,
                                         size_t stride) {
  const size_t s = kStride != 0 ? kStride : stride;
  for (size_t i = 0; i < n; ++i) row[i] += weight * src[i * s];
}

/// Returns the pitch of acc's rows: out_w, or `cols` when unit strides let every tap be one
/// pass over all rows at once (the columns beyond out_w are then sums of no use).
SOCSIM_VECTOR_CLONES
size_t window_sums(const int16_t* plane, size_t cols, const int8_t* w, const PlaneWindows& g,
                   int32_t* acc) {
  if (g.s_h == 1 && g.s_w == 1) {
    const size_t count = (g.out_h - 1) * cols + g.out_w;
    std::fill(acc, acc + count, 0);
    for (size_t ky = 0; ky < g.k_h; ++ky) {
      for (size_t kx = 0; kx < g.k_w; ++kx) {
        add_scaled_row<1>(acc, plane + ky * g.d_h * cols + kx * g.d_w, w[ky * g.k_w + kx], count,
                          1);
      }
    }
    return cols;
  }
  for (size_t oy = 0; oy < g.out_h; ++oy) {
    int32_t* row = acc + oy * g.out_w;
    std::fill(row, row + g.out_w, 0);
    for (size_t ky = 0; ky < g.k_h; ++ky) {
      const int16_t* src_row = plane + (oy * g.s_h + ky * g.d_h) * cols;
      for (size_t kx = 0; kx < g.k_w; ++kx) {
        const int16_t* src = src_row + kx * g.d_w;
        const int32_t weight = w[ky * g.k_w + kx];
        if (g.s_w == 1) {
          add_scaled_row<1>(row, src, weight, g.out_w, 1);
        } else if (g.s_w == 2) {
          add_scaled_row<2>(row, src, weight, g.out_w, 2);
        } else {
          add_scaled_row<0>(row, src, weight, g.out_w, g.s_w);
        }
      }
    }
  }
  return g.out_w;
}

// ---- output stage ---------------------------------------------------------------------------

/// The requantised output stage of the reference loops, with the bias added first.
struct OutputStage {
  const int32_t* bias;
  const int32_t* requant;
  int32_t zp_out, lo, hi;
};

/// y[j * stride] for j < count: the outputs of one channel from its sums.
SOCSIM_VECTOR_CLONES
void output_row(const OutputStage& out, int32_t channel, const int32_t* __restrict sums,
                size_t count, int8_t* __restrict y, size_t stride) {
  // Local copies: no int8 store can alias them, so the loop vectorises.
  const int32_t requant[2] = {out.requant[2 * channel], out.requant[2 * channel + 1]};
  const int32_t bias = out.bias[channel], zp_out = out.zp_out, lo = out.lo, hi = out.hi;
  for (size_t j = 0; j < count; ++j) {
    y[j * stride] = kernels::requantized_output(bias + sums[j], requant, 0, zp_out, lo, hi);
  }
}

// ---- operands -------------------------------------------------------------------------------

/// Rows of int16 values, `depth` (a multiple of kDepthAlign) per row, zero beyond the data;
/// the row count is padded with zero rows to a multiple of kBlockRows.
struct Panel {
  std::vector<int16_t> values;
  size_t rows = 0;
  size_t depth = 0;

  void reset(size_t data_rows, size_t data_depth) {
    rows = round_up(data_rows, kBlockRows);
    depth = round_up(data_depth, kDepthAlign);
    values.assign(rows * depth, 0);
  }
  int16_t* row(size_t r) { return values.data() + r * depth; }
};

/// A zero-padded int16 copy of some input channels, channels last: x - zp_in at
/// [iy + pad_t][ix + pad_l][c], 0 at the padding; `pitch` values per pixel (beyond the
/// channels: 0). Holds the rows and columns the windows reach.
struct ChannelsLast {
  std::vector<int16_t> values;
  size_t rows = 0, cols = 0, pitch = 0;

  const int16_t* pixel(size_t r, size_t col) const {
    return values.data() + (r * cols + col) * pitch;
  }

  /// `x` points at the first of `channels` planes of in_h x in_w (int8 or uint8).
  template <typename TIn>
  void fill(const kernels::ConvGeometry& g, const TIn* x, size_t channels, size_t pixel_pitch,
            int32_t zp_in) {
    rows = uz(g.out_h - 1) * uz(g.stride_h) + uz(g.k_h - 1) * uz(g.dil_h) + 1;
    cols = uz(g.out_w - 1) * uz(g.stride_w) + uz(g.k_w - 1) * uz(g.dil_w) + 1;
    pitch = pixel_pitch;
    values.assign(rows * cols * pitch, 0);
    const size_t in_h = uz(g.in_h), in_w = uz(g.in_w), pad_t = uz(g.pad_t), pad_l = uz(g.pad_l);
    const size_t last_row = std::min(in_h, rows > pad_t ? rows - pad_t : 0);
    const size_t last_col = std::min(in_w, cols > pad_l ? cols - pad_l : 0);
    // Row by row: one row of the copy stays in the L1 cache while every channel passes.
    for (size_t iy = 0; iy < last_row; ++iy) {
      int16_t* row = values.data() + ((iy + pad_t) * cols + pad_l) * pitch;
      for (size_t c = 0; c < channels; ++c) {
        const TIn* src = x + (c * in_h + iy) * in_w;
        for (size_t ix = 0; ix < last_col; ++ix) {
          row[ix * pitch + c] = static_cast<int16_t>(src[ix] - zp_in);
        }
      }
    }
  }
};

/// Computes the outputs of `channels` output channels (first: `channel0`) for the B rows `b`
/// of one tile: y[oc * channel_stride + j * pixel_stride].
void tile_outputs(const Panel& a, size_t channels, int32_t channel0, const int16_t* const* b,
                  size_t count, const OutputStage& out, int8_t* y, size_t channel_stride,
                  size_t pixel_stride, std::vector<int32_t>* sums) {
  sums->resize(a.rows * count);
  dot_products(a.values.data(), a.rows, b, count, a.depth, sums->data());
  for (size_t oc = 0; oc < channels; ++oc) {
    const int32_t channel = channel0 + static_cast<int32_t>(oc);
    output_row(out, channel, sums->data() + oc * count, count, y + oc * channel_stride,
               pixel_stride);
  }
}

// ---- convolution ----------------------------------------------------------------------------

/// One group's weights as A rows in (ky, kx, c) order.
void pack_weights(const kernels::ConvGeometry& g, const int8_t* w, size_t channels, Panel* a) {
  const size_t cin = uz(g.in_c / g.groups), k_h = uz(g.k_h), k_w = uz(g.k_w);
  a->reset(channels, cin * k_h * k_w);
  for (size_t oc = 0; oc < channels; ++oc) {
    const int8_t* wo = w + oc * cin * k_h * k_w;
    int16_t* row = a->row(oc);
    for (size_t c = 0; c < cin; ++c) {
      for (size_t t = 0; t < k_h * k_w; ++t) row[t * cin + c] = wo[c * k_h * k_w + t];
    }
  }
}

/// Convolution with more than one input channel per group: im2col tiles and the GEMM.
template <typename TIn>
void conv_gemm(const kernels::ConvGeometry& g, const TIn* x, const int8_t* w,
               const OutputStage& out, int32_t zp_in, int8_t* y) {
  const size_t cin = uz(g.in_c / g.groups), cout = uz(g.out_c / g.groups);
  const size_t k_h = uz(g.k_h), k_w = uz(g.k_w), out_w = uz(g.out_w);
  const size_t pixels = uz(g.out_h) * out_w, in_plane = uz(g.in_h) * uz(g.in_w);
  const bool pointwise = k_h == 1 && k_w == 1;
  // Values of one kernel row in B: contiguous in the channels-last copy when undilated.
  const size_t run = g.dil_w == 1 ? k_w * cin : cin;
  Panel a, tile;
  ChannelsLast input;
  std::vector<const int16_t*> b(kTileCols);
  std::vector<int32_t> sums;
  for (size_t group = 0; group < uz(g.groups); ++group) {
    pack_weights(g, w + group * cout * cin * k_h * k_w, cout, &a);
    if (!pointwise) tile.reset(kTileCols, a.depth);
    for (size_t n = 0; n < uz(g.batch); ++n) {
      input.fill(g, x + (n * uz(g.in_c) + group * cin) * in_plane, cin, pointwise ? a.depth : cin,
                 zp_in);
      for (size_t p0 = 0; p0 < pixels; p0 += kTileCols) {
        const size_t count = std::min(kTileCols, pixels - p0);
        for (size_t j = 0; j < count; ++j) {
          const size_t r = (p0 + j) / out_w * uz(g.stride_h);
          const size_t col = (p0 + j) % out_w * uz(g.stride_w);
          if (pointwise) {
            b[j] = input.pixel(r, col);
            continue;
          }
          int16_t* dst = tile.row(j);
          for (size_t ky = 0; ky < k_h; ++ky) {
            for (size_t kx = 0; kx < k_w; kx += run / cin) {
              const int16_t* src = input.pixel(r + ky * uz(g.dil_h), col + kx * uz(g.dil_w));
              dst = std::copy_n(src, run, dst);
            }
          }
          b[j] = tile.row(j);
        }
        const int32_t channel0 = static_cast<int32_t>(group * cout);
        int8_t* yt = y + (n * uz(g.out_c) + group * cout) * pixels + p0;
        tile_outputs(a, cout, channel0, b.data(), count, out, yt, pixels, 1, &sums);
      }
    }
  }
}

/// Convolution with one input channel per group (depthwise): vectorised rows per plane.
template <typename TIn>
void conv_depthwise(const kernels::ConvGeometry& g, const TIn* x, const int8_t* w,
                    const OutputStage& out, int32_t zp_in, int8_t* y) {
  const size_t cout = uz(g.out_c / g.groups), pixels = uz(g.out_h) * uz(g.out_w);
  const size_t taps = uz(g.k_h) * uz(g.k_w), in_plane = uz(g.in_h) * uz(g.in_w);
  const PlaneWindows windows{uz(g.out_h),    uz(g.out_w),    uz(g.k_h),   uz(g.k_w),
                             uz(g.stride_h), uz(g.stride_w), uz(g.dil_h), uz(g.dil_w)};
  ChannelsLast plane;
  std::vector<int32_t> sums;
  for (size_t n = 0; n < uz(g.batch); ++n) {
    for (size_t group = 0; group < uz(g.groups); ++group) {
      plane.fill(g, x + (n * uz(g.in_c) + group) * in_plane, 1, 1, zp_in);
      sums.resize(uz(g.out_h) * plane.cols);
      for (size_t oc = group * cout; oc < (group + 1) * cout; ++oc) {
        const size_t pitch =
            window_sums(plane.values.data(), plane.cols, w + oc * taps, windows, sums.data());
        int8_t* yc = y + (n * uz(g.out_c) + oc) * pixels;
        for (size_t oy = 0; oy < uz(g.out_h); ++oy) {
          output_row(out, static_cast<int32_t>(oc), sums.data() + oy * pitch, uz(g.out_w),
                     yc + oy * uz(g.out_w), 1);
        }
      }
    }
  }
}

template <typename TIn>
void conv(const kernels::ConvGeometry& g, const TIn* x, const int8_t* w, const int32_t* bias,
          const int32_t* requant, int32_t zp_in, int32_t zp_out, int32_t lo, int32_t hi,
          int8_t* y) {
  const OutputStage out{bias, requant, zp_out, lo, hi};
  if (g.in_c / g.groups == 1) {
    conv_depthwise(g, x, w, out, zp_in, y);
  } else {
    conv_gemm(g, x, w, out, zp_in, y);
  }
}

}  // namespace

void conv_q8(const kernels::ConvGeometry& g, const int8_t* x, const int8_t* w, const int32_t* bias,
             const int32_t* requant, int32_t zp_in, int32_t zp_out, int32_t lo, int32_t hi,
             int8_t* y) {
  conv(g, x, w, bias, requant, zp_in, zp_out, lo, hi, y);
}

void conv_q8(const kernels::ConvGeometry& g, const uint8_t* x, const int8_t* w, const int32_t* bias,
             const int32_t* requant, int32_t zp_in, int32_t zp_out, int32_t lo, int32_t hi,
             int8_t* y) {
  conv(g, x, w, bias, requant, zp_in, zp_out, lo, hi, y);
}

void fully_connected_i8(uint32_t rows, uint32_t in, uint32_t out, const int8_t* x, const int8_t* w,
                        const int32_t* bias, const int32_t* requant, int32_t zp_in, int32_t zp_out,
                        int32_t lo, int32_t hi, int8_t* y) {
  const OutputStage stage{bias, requant, zp_out, lo, hi};
  // With few rows, packing the weights would cost as much as using them: whole blocks of
  // weight rows are read in place, the last out % kBlockRows rows from a packed panel.
  const size_t direct = rows < kDirectRows ? out / kBlockRows * kBlockRows : 0;
  Panel a, b;
  a.reset(out - direct, in);
  for (size_t o = direct; o < out; ++o) std::copy_n(w + o * in, in, a.row(o - direct));
  std::vector<const int16_t*> b_rows(kTileCols);
  std::vector<int32_t> sums;
  for (size_t r0 = 0; r0 < rows; r0 += kTileCols) {
    const size_t count = std::min<size_t>(kTileCols, rows - r0);
    b.reset(count, in);
    for (size_t j = 0; j < count; ++j) {
      const int8_t* xr = x + (r0 + j) * in;
      int16_t* dst = b.row(j);
      for (size_t i = 0; i < in; ++i) dst[i] = static_cast<int16_t>(xr[i] - zp_in);
      b_rows[j] = dst;
    }
    sums.resize((direct + a.rows) * count);
    if (direct != 0) dot_products_i8(w, direct, b_rows.data(), count, in, sums.data());
    if (a.rows != 0) {
      dot_products(a.values.data(), a.rows, b_rows.data(), count, a.depth,
                   sums.data() + direct * count);
    }
    for (size_t o = 0; o < out; ++o) {
      output_row(stage, static_cast<int32_t>(o), sums.data() + o * count, count, y + r0 * out + o,
                 out);
    }
  }
}

}  // namespace socsim::npu_fast
