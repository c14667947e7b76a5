// The GEMM: A holds one row per output channel (a group's weights in (ky, kx, c) order), B one
// row per output pixel (its receptive field in the same order: input minus zp_in, 0 for
// padding). Both are int16, every row padded with zeros to a multiple of kDepthAlign values,
// so that the dot products have no remainder loop and int16 x int16 -> int32 pairs map onto the
// vector multiply-add instructions (pmaddwd and its wider successors). A 1x1 convolution needs
// no im2col: B's rows are the pixels of the channels-last input copy.
#include "models/npu/fast_kernels.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "firmware/int8/arithmetic.h"

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
constexpr size_t kChunk = 64;       // sums of conv_planar that stay in vector registers
constexpr int32_t kPlanarTerms = 64;  // grouped convolutions of at most this many terms per
                                      // output go to conv_planar

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
  if (stride == 1) {  // contiguous: a loop of its own, which vectorises
    for (size_t j = 0; j < count; ++j) {
      y[j] = kernels::requantized_output(bias + sums[j], requant, 0, zp_out, lo, hi);
    }
    return;
  }
  for (size_t j = 0; j < count; ++j) {
    y[j * stride] = kernels::requantized_output(bias + sums[j], requant, 0, zp_out, lo, hi);
  }
}

/// The outputs of one channel from `terms` passes: y[j] for j < count from bias + sum_t w[t]
/// src[t][j], a chunk of kChunk sums at a time (every src[t] holds count rounded up to kChunk
/// values). Each term (x - zp_in) * w lies in [-255 * 128, 255 * 128]: an exact int16 product.
/// The loops are written with vector types, which the compiler keeps as such (left to the
/// vectoriser, -O3 interchanged them into scalar code).
SOCSIM_VECTOR_CLONES
void plane_outputs(const int16_t* const* src, const int8_t* w, size_t terms, size_t count,
                   const OutputStage& out, int32_t channel, int8_t* y) {
  using I16x16 = int16_t __attribute__((vector_size(32)));
  using I32x16 = int32_t __attribute__((vector_size(64)));
  constexpr size_t kVectors = kChunk / 16;
  for (size_t start = 0; start < count; start += kChunk) {
    I32x16 acc[kVectors] = {};
    for (size_t t = 0; t < terms; ++t) {
      const int16_t* s = src[t] + start;
      const I16x16 weight = I16x16{} + static_cast<int16_t>(w[t]);
      for (size_t v = 0; v < kVectors; ++v) {
        I16x16 x;
        std::memcpy(&x, s + 16 * v, sizeof x);
        acc[v] += __builtin_convertvector(x * weight, I32x16);
      }
    }
    int32_t sums[kChunk];
    std::memcpy(sums, acc, sizeof sums);
    output_row(out, channel, sums, std::min(kChunk, count - start), y + start, 1);
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

/// dst[k] = src[k * step] - zp for k < n; kStep: the step when known at compile time (0: not).
template <size_t kStep, typename TIn>
SOCSIM_ALWAYS_INLINE void strided_copy(const TIn* __restrict src, size_t n, size_t step,
                                       int32_t zp, int16_t* __restrict dst) {
  const size_t s = kStep != 0 ? kStep : step;
  for (size_t k = 0; k < n; ++k) dst[k] = static_cast<int16_t>(src[k * s] - zp);
}

/// Zero-padded int16 planes of some input channels (x - zp_in, 0 at the padding), each split
/// into its stride phases: padded row r, column q of a plane is row r / s_h, column q / s_w of
/// phase (r % s_h, q % s_w). A tap at offset (dy, dx) of the windows then reads one phase
/// from row dy / s_h, column dx / s_w on, with unit steps: output (oy, ox) at oy * cols + ox.
/// kChunk zero values follow the planes, so a chunk that starts in the last phase may read on.
/// The padding is the same for every group of channels: it is zeroed once, by shape().
struct PhasePlanes {
  std::vector<int16_t> values;
  std::vector<size_t> taps;        // offset of each tap's first value in a channel
  std::vector<size_t> phase_cols;  // per column phase: first input column, value, count
  size_t s_h = 1, s_w = 1, rows = 0, cols = 0, phase = 0, channel = 0;
  size_t last_row = 0, last_col = 0;

  void shape(const kernels::ConvGeometry& g, size_t channels) {
    s_h = uz(g.stride_h);
    s_w = uz(g.stride_w);
    const size_t padded_rows = uz(g.out_h - 1) * s_h + uz(g.k_h - 1) * uz(g.dil_h) + 1;
    const size_t padded_cols = uz(g.out_w - 1) * s_w + uz(g.k_w - 1) * uz(g.dil_w) + 1;
    rows = (padded_rows + s_h - 1) / s_h;
    cols = (padded_cols + s_w - 1) / s_w;
    phase = rows * cols;
    channel = phase * s_h * s_w;
    values.assign(channels * channel + kChunk, 0);
    const size_t pad_t = uz(g.pad_t), pad_l = uz(g.pad_l);
    last_row = std::min(uz(g.in_h), padded_rows > pad_t ? padded_rows - pad_t : 0);
    last_col = std::min(uz(g.in_w), padded_cols > pad_l ? padded_cols - pad_l : 0);
    taps.clear();
    for (size_t ky = 0; ky < uz(g.k_h); ++ky) {
      for (size_t kx = 0; kx < uz(g.k_w); ++kx) {
        const size_t dy = ky * uz(g.dil_h), dx = kx * uz(g.dil_w);
        taps.push_back((dy % s_h * s_w + dx % s_w) * phase + dy / s_h * cols + dx / s_w);
      }
    }
    phase_cols.clear();
    for (size_t b = 0; b < s_w; ++b) {  // the input columns ix with (ix + pad_l) % s_w == b
      const size_t ix0 = (b + s_w - pad_l % s_w) % s_w;
      phase_cols.push_back(ix0);
      phase_cols.push_back(b * phase + (ix0 + pad_l) / s_w);
      phase_cols.push_back(ix0 < last_col ? (last_col - ix0 + s_w - 1) / s_w : 0);
    }
  }

  /// `x` points at the first of the channels' planes of in_h x in_w (int8 or uint8).
  template <typename TIn>
  void fill(const kernels::ConvGeometry& g, const TIn* x, size_t channels, int32_t zp_in) {
    const size_t in_h = uz(g.in_h), in_w = uz(g.in_w);
    for (size_t c = 0; c < channels; ++c) {
      size_t r_phase = uz(g.pad_t) % s_h, r_row = uz(g.pad_t) / s_h;
      for (size_t iy = 0; iy < last_row; ++iy) {
        int16_t* row = values.data() + c * channel + r_phase * s_w * phase + r_row * cols;
        const TIn* src = x + (c * in_h + iy) * in_w;
        for (size_t b = 0; b < s_w; ++b) {
          const size_t ix0 = phase_cols[3 * b], n = phase_cols[3 * b + 2];
          int16_t* dst = row + phase_cols[3 * b + 1];
          if (s_w == 1) {
            strided_copy<1>(src + ix0, n, 1, zp_in, dst);
          } else if (s_w == 2) {
            strided_copy<2>(src + ix0, n, 2, zp_in, dst);
          } else {
            strided_copy<0>(src + ix0, n, s_w, zp_in, dst);
          }
        }
        if (++r_phase == s_h) {
          r_phase = 0;
          ++r_row;
        }
      }
    }
  }
};

/// Whether a convolution goes to conv_planar rather than the GEMM: one input channel per
/// group, or groups of so few terms per output that the GEMM's rows would be mostly padding.
bool planar(const kernels::ConvGeometry& g) {
  const int32_t cin = g.in_c / g.groups, taps = g.k_h * g.k_w;
  return cin == 1 || (g.groups > 1 && taps > 1 && cin * taps <= kPlanarTerms);
}

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

/// Convolution with few input channels per group (depthwise, small groups): one plane per
/// input channel, and every output channel's sums as passes of one term (input channel, tap)
/// each over all its output pixels at once.
template <typename TIn>
void conv_planar(const kernels::ConvGeometry& g, const TIn* x, const int8_t* w,
                 const OutputStage& out, int32_t zp_in, int8_t* y) {
  const size_t cin = uz(g.in_c / g.groups), cout = uz(g.out_c / g.groups);
  const size_t out_h = uz(g.out_h), out_w = uz(g.out_w), pixels = out_h * out_w;
  const size_t taps = uz(g.k_h) * uz(g.k_w), terms = cin * taps;
  PhasePlanes planes;
  planes.shape(g, cin);
  std::vector<const int16_t*> src(terms);
  for (size_t c = 0; c < cin; ++c) {
    for (size_t t = 0; t < taps; ++t) {
      src[c * taps + t] = planes.values.data() + c * planes.channel + planes.taps[t];
    }
  }
  // The sums run over whole phase rows: the outputs go to rows, then out_w of each row to y
  // (straight to y when the rows have no columns beyond out_w).
  const size_t count = (out_h - 1) * planes.cols + out_w;
  const bool direct = planes.cols == out_w;
  std::vector<int8_t> rows(direct ? 0 : count);
  for (size_t n = 0; n < uz(g.batch); ++n) {
    for (size_t group = 0; group < uz(g.groups); ++group) {
      planes.fill(g, x + (n * uz(g.in_c) + group * cin) * uz(g.in_h) * uz(g.in_w), cin, zp_in);
      for (size_t oc = group * cout; oc < (group + 1) * cout; ++oc) {
        int8_t* yc = y + (n * uz(g.out_c) + oc) * pixels;
        plane_outputs(src.data(), w + oc * terms, terms, count, out, static_cast<int32_t>(oc),
                      direct ? yc : rows.data());
        if (direct) continue;
        for (size_t oy = 0; oy < out_h; ++oy) {
          std::copy_n(rows.data() + oy * planes.cols, out_w, yc + oy * out_w);
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
  if (planar(g)) {
    conv_planar(g, x, w, out, zp_in, y);
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
