#include "models/npu/mac_array_timing.h"

#include <algorithm>
#include <memory>
#include <tuple>

#include "models/npu/npu_layer.h"
#include "models/npu/npu_post_op.h"

namespace socsim {

using namespace npu;

ArrayOperands array_operands(NpuDataflow dataflow, uint64_t window, uint64_t filters,
                             uint64_t pixels) {
  switch (dataflow) {
    case NpuDataflow::kWeightStationary: return {window, filters, pixels};
    case NpuDataflow::kOutputStationary: return {pixels, filters, window};
    case NpuDataflow::kInputStationary: return {window, pixels, filters};
  }
  return {};
}

uint64_t fold_fill_cycles(NpuDataflow dataflow, uint64_t rows, uint64_t cols) {
  const uint64_t skew = rows + cols - 2;
  return dataflow == NpuDataflow::kOutputStationary ? skew : rows + skew;
}

uint64_t systolic_cycles(NpuDataflow dataflow, uint64_t rows, uint64_t cols,
                         const ArrayOperands& op) {
  if (op.s_r == 0 || op.s_c == 0 || op.t == 0) return 0;
  return (fold_fill_cycles(dataflow, rows, cols) + op.t) * ((op.s_r + rows - 1) / rows) *
         ((op.s_c + cols - 1) / cols);
}

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

using ConvView = NpuConvView;

// Input rows (inside the image) that output rows [r0, r1) read.
uint64_t input_rows(const ConvView& v, uint64_t r0, uint64_t r1) {
  const int64_t first = static_cast<int64_t>(r0 * v.stride) - static_cast<int64_t>(v.pad_t);
  const int64_t last = static_cast<int64_t>((r1 - 1) * v.stride) -
                       static_cast<int64_t>(v.pad_t) + static_cast<int64_t>((v.kh - 1) * v.dil);
  const int64_t lo = std::max<int64_t>(first, 0);
  const int64_t hi = std::min<int64_t>(last, static_cast<int64_t>(v.hin) - 1);
  return hi >= lo ? static_cast<uint64_t>(hi - lo + 1) : 0;
}

// Sum of input rows over all row tiles of height th, and the largest tile's rows.
std::pair<uint64_t, uint64_t> input_row_pass(const ConvView& v, uint64_t th) {
  uint64_t sum = 0, most = 0;
  for (uint64_t r0 = 0; r0 < v.ho; r0 += th) {
    const uint64_t rows = input_rows(v, r0, std::min(v.ho, r0 + th));
    sum += rows;
    most = std::max(most, rows);
  }
  return {sum, most};
}

std::vector<uint64_t> row_tile_heights(uint64_t ho) {
  std::vector<uint64_t> out;
  for (uint64_t k = 1; k <= ho; ++k) {
    const uint64_t th = ceil_div(ho, k);
    if (out.empty() || out.back() != th) out.push_back(th);
  }
  return out;
}

struct CoreShare {
  uint64_t first;  // first real channel
  uint64_t count;  // real channels
};

// Splits `channels` (padded to `block`) over the cores by whole blocks.
std::vector<CoreShare> split_channels(const NpuConfig& c, uint64_t channels, uint64_t block,
                                      bool allow) {
  const uint64_t blocks = ceil_div(channels, block);
  const uint64_t cores = allow && c.split_output_channels ? std::min<uint64_t>(c.cores, blocks) : 1;
  const uint64_t per_core = ceil_div(blocks, cores) * block;
  std::vector<CoreShare> shares;
  for (uint64_t first = 0; first < channels; first += per_core) {
    shares.push_back({first, std::min(per_core, channels - first)});
  }
  return shares;
}

// Merges per-core tile lists into lockstep steps.
void merge_core_tiles(const std::vector<std::vector<NpuTile>>& per_core, LayerPlan* plan) {
  size_t steps = 0;
  for (const auto& t : per_core) steps = std::max(steps, t.size());
  plan->tiles.assign(steps, NpuTile{});
  for (const auto& tiles : per_core) {
    for (size_t i = 0; i < tiles.size(); ++i) {
      NpuTile& s = plan->tiles[i];
      s.input_bytes += tiles[i].input_bytes;
      s.weight_bytes += tiles[i].weight_bytes;
      s.output_bytes += tiles[i].output_bytes;
      s.compute_cycles = std::max(s.compute_cycles, tiles[i].compute_cycles);
    }
  }
  for (const NpuTile& s : plan->tiles) {
    plan->compute_cycles += s.compute_cycles;
    plan->read_bytes += s.input_bytes + s.weight_bytes;
    plan->write_bytes += s.output_bytes;
  }
}

// ---- convolutions and fully connected layers on the array ----------------------------------

struct ConvTiling {
  uint64_t tm = 0, tn = 0, th = 0;
  bool rows_outer = false;
  uint64_t time = UINT64_MAX;     // max(compute cycles, DMA cycles) of all cores
  uint64_t traffic = UINT64_MAX;  // DMA bytes of one core
  uint64_t tiles = UINT64_MAX;
  uint64_t buffer = 0;
};
// Cycles of the folds of one operand mapping. Without overlap every fold pays its fill and
// drain (SCALE-Sim); with overlap the next fold's stationary operand loads (R cycles) while
// the current one streams, so a fold costs max(T, R) and the layer pays one fill
// (layer_fill_cycles).
uint64_t fold_cycles(const NpuConfig& c, const ArrayOperands& op) {
  if (!c.fold_overlap) return systolic_cycles(c.dataflow, c.rows, c.columns, op);
  if (op.s_r == 0 || op.s_c == 0 || op.t == 0) return 0;
  return std::max<uint64_t>(op.t, c.rows) * ceil_div(op.s_r, c.rows) * ceil_div(op.s_c, c.columns);
}

// The fill and drain a pipelined array pays once per layer.
uint64_t layer_fill_cycles(const NpuConfig& c) {
  return c.fold_overlap ? fold_fill_cycles(c.dataflow, c.rows, c.columns) : 0;
}

// Products per output of a convolution over `cin` input channels: Cin padded to the
// alignment, or, with small-Cin packing and Cin below the alignment, Kh x Kw x Cin packed
// together and padded once (a 3-channel 3x3 layer reduces over 32, not 9 x 32).
uint64_t reduction_size(const NpuConfig& c, const ConvView& v, uint64_t cin, uint64_t align_in) {
  if (c.small_cin_packing && cin < align_in) return align_up(v.kh * v.kw * cin, align_in);
  return v.kh * v.kw * align_up(cin, align_in);
}

// A depthwise convolution of `channels` (aligned) channels over `pixels` outputs.
// Channel lanes: the array's diagonal holds min(R, C) channels per pass (a channel needs its
// own input row and its own output column), each of the Kh x Kw taps a fold streaming the
// pixels. Channel per layer (SCALE-Sim's "DP" layers): each channel is a layer of one
// channel and one filter, S_R x S_C x T from the dataflow's table.
uint64_t depthwise_cycles(const NpuConfig& c, const ConvView& v, uint64_t channels,
                          uint64_t pixels) {
  const uint64_t taps = v.kh * v.kw;
  if (c.depthwise_mapping == NpuDepthwiseMapping::kChannelLanes) {
    const uint64_t lanes = std::min(c.rows, c.columns);
    const uint64_t per_fold = c.fold_overlap ? std::max<uint64_t>(pixels, c.rows)
                                             : pixels + fold_fill_cycles(c.dataflow, c.rows,
                                                                         c.columns);
    return ceil_div(channels, lanes) * taps * per_fold;
  }
  return channels * fold_cycles(c, array_operands(c.dataflow, taps, 1, pixels));
}

// The floor of a 1x1 convolution (pointwise_channels_per_cycle = N > 0): at least
// ceil(M / N) cycles per output pixel for M (aligned) output channels, whatever the folds
// give; newer RKNN firmware's RK3588 NPU Cycles show it at N = 8 (docs/npu.md, "Calibration").
uint64_t pointwise_floor_cycles(const NpuConfig& c, const ConvView& v, uint64_t m_a,
                                uint64_t pixels) {
  const uint64_t n = c.pointwise_channels_per_cycle;
  if (n == 0 || v.depthwise || v.groups != 1 || v.kh != 1 || v.kw != 1) return 0;
  return pixels * ceil_div(m_a, n);
}

uint64_t array_cycles(const NpuConfig& c, const ConvView& v, double throughput, uint64_t m_a,
                      uint64_t window, uint64_t pixels) {
  uint64_t cycles;
  if (v.depthwise) {
    cycles = depthwise_cycles(c, v, m_a, pixels);
  } else {
    cycles = fold_cycles(c, array_operands(c.dataflow, window, m_a, pixels));
    if (v.groups > 1) cycles *= v.groups;
    cycles = std::max(cycles, pointwise_floor_cycles(c, v, m_a, pixels));
  }
  return static_cast<uint64_t>(static_cast<double>(cycles) / throughput + 0.999999);
}

// Compute cycles of one tile of `tm` output channels, `tn` input channels and `rows` output
// rows (the layer's one fill not included).
uint64_t tile_compute_cycles(const NpuConfig& c, const ConvView& v, double throughput,
                             uint64_t tm, uint64_t tn, uint64_t rows, uint64_t block,
                             uint64_t align_in) {
  const uint64_t m_a = v.groups > 1 && !v.depthwise ? align_up(tm / v.groups, block)
                                                    : align_up(tm, block);
  return array_cycles(c, v, throughput, m_a, reduction_size(c, v, tn, align_in),
                      v.n * rows * v.wo);
}

// The sizes `total` cuts into at `step`: {size, count} of the full chunks and the rest.
std::vector<std::pair<uint64_t, uint64_t>> chunk_sizes(uint64_t total, uint64_t step) {
  std::vector<std::pair<uint64_t, uint64_t>> out{{step, total / step}};
  if (total % step) out.push_back({total % step, 1});
  return out;
}

// Buffer bytes a convolution tile takes: its input and weights (two copies when double
// buffered) and its output tile; with `buffer_banks` the input and the weights each in whole
// banks and no output (RK3588's CBUF holds features and weights in banks of their own; the
// results leave through the post-processor, docs/npu.md "Tiling").
uint64_t conv_buffer_need(const NpuConfig& c, uint64_t in_tile, uint64_t w_tile,
                          uint64_t out_tile) {
  const uint64_t copies = c.double_buffer ? 2 : 1;
  if (c.buffer_banks == 0) return copies * (in_tile + w_tile) + out_tile;
  const uint64_t bank = c.buffer_bytes / c.buffer_banks;
  return copies * (ceil_div(in_tile, bank) + ceil_div(w_tile, bank)) * bank;
}

// Chooses the tiling of one core's `mr` output channels (`cores` cores work alike, each
// reading the whole input through the one DMA queue). Of the tilings that fit the buffer,
// the one whose double-buffered time max(compute cycles with every tile's fill and drain,
// DMA bytes of all cores / dma.bytes_per_cycle) is least; ties go to the least traffic, then
// to the fewest tiles (docs/npu.md, "Tiling").
ConvTiling choose_conv_tiling(const NpuConfig& c, const ConvView& v, double throughput,
                              uint64_t mr, uint64_t cores, uint64_t b, uint64_t block,
                              uint64_t align_in) {
  const uint64_t cin_g = v.cin / v.groups;
  const bool channel_tiles = v.groups == 1;  // grouped: whole channel range per tile
  std::vector<uint64_t> tms, tns;
  if (channel_tiles) {
    for (uint64_t tm = align_up(mr, block); tm >= block; tm -= block) tms.push_back(std::min(tm, mr));
  } else {
    tms.push_back(mr);
  }
  if (v.depthwise || !channel_tiles) {
    tns.push_back(cin_g);
  } else {
    for (uint64_t tn = cin_g;; tn = align_up(ceil_div(tn, 2), align_in)) {
      tns.push_back(tn);
      if (tn <= align_in || align_up(ceil_div(tn, 2), align_in) >= tn) break;
    }
  }
  const uint64_t weights_total = mr * cin_g * v.kh * v.kw * b + v.channel_bytes * mr;
  const uint64_t out_total = v.n * mr * v.ho * v.wo * b;
  if (!c.tiling) {  // one tile: the whole layer
    const uint64_t in_bytes = v.n * v.cin * input_row_pass(v, v.ho).first * v.win * b;
    const uint64_t need = in_bytes + weights_total + out_total;
    return {mr, cin_g, v.ho, false, 0, need, 1, need};
  }
  ConvTiling best, smallest;
  for (uint64_t th : row_tile_heights(v.ho)) {
    const auto [row_sum, row_max] = input_row_pass(v, th);
    const uint64_t r_tiles = ceil_div(v.ho, th);
    for (uint64_t tm : tms) {
      const uint64_t m_tiles = ceil_div(mr, tm);
      for (uint64_t tn : tns) {
        const uint64_t n_tiles = ceil_div(cin_g, tn);
        const uint64_t in_ch = v.depthwise ? tm : (v.groups > 1 ? v.cin : tn);
        const uint64_t in_tile = v.n * in_ch * row_max * v.win * b;
        const uint64_t w_tile =
            tm * (v.depthwise ? 1 : tn) * v.kh * v.kw * b + v.channel_bytes * tm;
        const uint64_t out_tile = v.n * tm * th * v.wo * b;
        const uint64_t need = conv_buffer_need(c, in_tile, w_tile, out_tile);
        const uint64_t tiles = m_tiles * n_tiles * r_tiles;
        ConvTiling cand{tm, tn, th, false, UINT64_MAX, UINT64_MAX, tiles, need};
        if (smallest.buffer == 0 || need < smallest.buffer) smallest = cand;
        if (need > c.buffer_bytes) continue;
        uint64_t compute = layer_fill_cycles(c);
        for (const auto& [ms, mn] : chunk_sizes(mr, tm))
          for (const auto& [ns, nn] : chunk_sizes(cin_g, tn))
            for (const auto& [rs, rn] : chunk_sizes(v.ho, th))
              compute += mn * nn * rn * tile_compute_cycles(c, v, throughput, ms, ns, rs, block,
                                                            align_in);
        for (bool rows_outer : {false, true}) {
          uint64_t in_traffic, w_traffic;
          if (v.depthwise || v.groups > 1) {
            in_traffic = v.n * (v.depthwise ? mr : v.cin) * row_sum * v.win * b;
            w_traffic = weights_total;
          } else if (!rows_outer) {
            in_traffic = v.n * v.cin * row_sum * v.win * b * m_tiles;
            w_traffic = weights_total * (n_tiles > 1 ? r_tiles : 1);
          } else {
            in_traffic = v.n * v.cin * row_sum * v.win * b * (n_tiles > 1 ? m_tiles : 1);
            w_traffic = weights_total * (m_tiles > 1 || n_tiles > 1 ? r_tiles : 1);
          }
          const uint64_t traffic = in_traffic + w_traffic + out_total;
          const uint64_t dma = ceil_div(cores * traffic, c.dma.bytes_per_cycle);
          const uint64_t time = c.double_buffer ? std::max(compute, dma) : compute + dma;
          if (std::make_tuple(time, traffic, tiles) <
              std::make_tuple(best.time, best.traffic, best.tiles)) {
            best = cand;
            best.rows_outer = rows_outer;
            best.time = time;
            best.traffic = traffic;
          }
        }
      }
    }
  }
  if (best.time == UINT64_MAX) best = smallest;  // nothing fits: the smallest tiles
  return best;
}

std::vector<NpuTile> conv_core_tiles(const NpuConfig& c, const ConvView& v, double throughput,
                                     uint64_t mr, uint64_t b, uint64_t block, uint64_t align_in,
                                     const ConvTiling& t) {
  const uint64_t cin_g = v.cin / v.groups;
  struct Range {
    uint64_t lo, hi;
  };
  auto chunks = [](uint64_t total, uint64_t step) {
    std::vector<Range> out;
    for (uint64_t lo = 0; lo < total; lo += step) out.push_back({lo, std::min(total, lo + step)});
    return out;
  };
  const std::vector<Range> ms = chunks(mr, t.tm);
  const std::vector<Range> ns = chunks(cin_g, t.tn);
  const std::vector<Range> rs = chunks(v.ho, t.th);
  std::vector<NpuTile> tiles;
  auto emit = [&](size_t mi, size_t ri, size_t ni) {
    const Range m = ms[mi], r = rs[ri], n = ns[ni];
    const uint64_t tm = m.hi - m.lo, tn = n.hi - n.lo;
    NpuTile tile;
    const uint64_t rows = input_rows(v, r.lo, r.hi);
    bool load_input, load_weights;
    if (v.depthwise || v.groups > 1) {
      load_input = true;
      load_weights = ri == 0 || t.rows_outer;
      if (t.rows_outer && ms.size() == 1) load_weights = ri == 0;
    } else if (!t.rows_outer) {
      load_input = true;
      load_weights = ns.size() > 1 || ri == 0;
    } else {
      load_input = ns.size() > 1 || mi == 0;
      load_weights = ms.size() > 1 || ns.size() > 1 || ri == 0;
    }
    const uint64_t in_ch = v.depthwise ? tm : (v.groups > 1 ? v.cin : tn);
    if (load_input) tile.input_bytes = v.n * in_ch * rows * v.win * b;
    if (load_weights) {
      tile.weight_bytes =
          tm * (v.depthwise ? 1 : tn) * v.kh * v.kw * b + (ni == 0 ? v.channel_bytes * tm : 0);
    }
    tile.compute_cycles =
        tile_compute_cycles(c, v, throughput, tm, tn, r.hi - r.lo, block, align_in);
    if (tiles.empty()) tile.compute_cycles += layer_fill_cycles(c);
    if (ni + 1 == ns.size()) tile.output_bytes = v.n * tm * (r.hi - r.lo) * v.wo * b;
    tiles.push_back(tile);
  };
  if (!t.rows_outer) {
    for (size_t mi = 0; mi < ms.size(); ++mi)
      for (size_t ri = 0; ri < rs.size(); ++ri)
        for (size_t ni = 0; ni < ns.size(); ++ni) emit(mi, ri, ni);
  } else {
    for (size_t ri = 0; ri < rs.size(); ++ri)
      for (size_t mi = 0; mi < ms.size(); ++mi)
        for (size_t ni = 0; ni < ns.size(); ++ni) emit(mi, ri, ni);
  }
  return tiles;
}

// ---- elementwise and pooling operators on the vector path ----------------------------------

}  // namespace

void plan_array_layer(const NpuConfig& c, const NpuConvView& v, LayerPlan* plan) {
  const size_t dt = 0;  // int8: the only type descriptors carry today
  const uint64_t b = 1;
  const NpuAlignment& al = c.alignment[dt];
  const double throughput = c.throughput[dt];
  const uint64_t block = v.depthwise ? al.depthwise : al.conv_output;
  plan->uses_array = true;
  const std::vector<CoreShare> shares = split_channels(c, v.cout, block, v.groups == 1 || v.depthwise);
  plan->cores_used = static_cast<uint32_t>(shares.size());
  for (const CoreShare& s : shares) plan->core_work.push_back(s.count);
  const uint64_t mr = shares.front().count;
  const ConvTiling t =
      choose_conv_tiling(c, v, throughput, mr, shares.size(), b, block, al.conv_input);
  plan->tile_m = static_cast<uint32_t>(t.tm);
  plan->tile_n = static_cast<uint32_t>(t.tn);
  plan->tile_rows = static_cast<uint32_t>(t.th);
  plan->rows_outer = t.rows_outer;
  plan->buffer_bytes = t.buffer;
  const uint64_t pixels = v.n * v.ho * v.wo;
  const uint64_t m_a = align_up(mr, block);
  ArrayOperands op;
  if (!v.depthwise) {
    op = array_operands(c.dataflow, reduction_size(c, v, v.cin / v.groups, al.conv_input), m_a,
                        pixels);
  } else if (c.depthwise_mapping == NpuDepthwiseMapping::kChannelLanes) {
    op = {m_a, m_a, v.kh * v.kw * pixels};  // the diagonal; taps x pixels in time
  } else {
    op = array_operands(c.dataflow, v.kh * v.kw, 1, pixels);  // per channel
  }
  plan->s_r = op.s_r;
  plan->s_c = op.s_c;
  plan->t = op.t;
  auto tiles_of = [&](const NpuConfig& config, LayerPlan* out) {
    std::vector<std::vector<NpuTile>> per_core;
    for (const CoreShare& s : shares) {
      per_core.push_back(
          conv_core_tiles(config, v, throughput, s.count, b, block, al.conv_input, t));
    }
    merge_core_tiles(per_core, out);
  };
  tiles_of(c, plan);
  if (pointwise_floor_cycles(c, v, 1, 1) > 0) {  // a 1x1 layer under the floor
    NpuConfig no_floor = c;
    no_floor.pointwise_channels_per_cycle = 0;
    LayerPlan folds;
    tiles_of(no_floor, &folds);  // the same tiles without the floor
    plan->pointwise_floor_cycles = plan->compute_cycles - folds.compute_cycles;
  }
}

void plan_vector_layer(const NpuConfig& c, const NpuVectorView& vv, LayerPlan* plan) {
  const size_t dt = 0;
  const uint64_t b = 1;
  const double throughput = c.throughput[dt];
  const uint64_t block = c.alignment[dt].other;
  const uint64_t n = vv.n, ch = vv.ch, win = vv.win, ho = vv.ho, wo = vv.wo, kh = vv.kh, kw = vv.kw;
  const bool binary = vv.binary;
  const ConvView v{n, ch, vv.hin, win, ch, ho, wo, kh, kw, vv.stride, vv.pad_t, 1, 1, false};
  const std::vector<CoreShare> shares = split_channels(c, ch, block, true);
  plan->cores_used = static_cast<uint32_t>(shares.size());
  for (const CoreShare& s : shares) plan->core_work.push_back(s.count);
  const uint64_t operands = binary ? 2 : 1;
  // The input rows of output rows [r0, r1): a window's, or those a resize repeats.
  const uint64_t repeat = vv.row_repeat;
  auto rows_in = [&](uint64_t r0, uint64_t r1) {
    return repeat > 1 ? (r1 - 1) / repeat - r0 / repeat + 1 : input_rows(v, r0, r1);
  };
  auto most_rows_in = [&](uint64_t th) {
    uint64_t most = 0;
    for (uint64_t r0 = 0; r0 < ho; r0 += th)
      most = std::max(most, rows_in(r0, std::min(ho, r0 + th)));
    return most;
  };
  // Output rows per tile: as many as fit, channels halved if one row does not fit.
  uint64_t tc = shares.front().count, th = c.tiling ? 0 : ho;
  while (th == 0) {
    for (uint64_t cand : row_tile_heights(ho)) {
      const uint64_t in_tile = n * tc * most_rows_in(cand) * win * b * operands;
      if ((c.double_buffer ? 2 : 1) * in_tile + n * tc * cand * wo * b <= c.buffer_bytes) {
        th = cand;
        break;
      }
    }
    if (th != 0 || tc <= block) break;
    tc = align_up(ceil_div(tc, 2), block);
  }
  if (th == 0) th = 1;
  plan->tile_m = static_cast<uint32_t>(tc);
  plan->tile_rows = static_cast<uint32_t>(th);
  plan->s_c = align_up(shares.front().count, block);
  std::vector<std::vector<NpuTile>> per_core;
  for (const CoreShare& s : shares) {
    std::vector<NpuTile> tiles;
    for (uint64_t c0 = 0; c0 < s.count; c0 += tc) {
      const uint64_t cn = std::min(tc, s.count - c0);
      for (uint64_t r0 = 0; r0 < ho; r0 += th) {
        const uint64_t r1 = std::min(ho, r0 + th);
        NpuTile tile;
        const uint64_t in_bytes = n * cn * rows_in(r0, r1) * win * b;
        tile.input_bytes = in_bytes;
        if (binary) tile.weight_bytes = in_bytes;
        if (r0 == 0) tile.weight_bytes += n * cn * vv.channel_operand_bytes;
        const uint64_t work = n * align_up(cn, block) * (r1 - r0) * wo * kh * kw;
        tile.compute_cycles = static_cast<uint64_t>(
            static_cast<double>(ceil_div(work, c.columns)) / throughput + 0.999999);
        if (tiles.empty() && vv.table_bytes > 0) {
          tile.weight_bytes += vv.table_bytes;
          tile.compute_cycles += c.lut_cycles;  // the table goes into the LUT first
        }
        if (tiles.empty()) tile.weight_bytes += vv.index_bytes;
        tile.output_bytes = n * cn * (r1 - r0) * wo * b;
        tiles.push_back(tile);
      }
    }
    per_core.push_back(std::move(tiles));
  }
  merge_core_tiles(per_core, plan);
  plan->buffer_bytes = 0;
}

NpuVectorView vector_view(const LayerDescriptor& d) {
  return {d.in_shape[0], d.in_shape[1], d.in_shape[2], d.in_shape[3], d.out_shape[2],
          d.out_shape[3], 1, 1, 1, 0, false, 0, 0};
}

LayerPlan plan_layer(const NpuConfig& config, const LayerDescriptor& d) {
  const NpuLayerType& type = *find_npu_layer(d.op);
  LayerPlan plan;
  plan.op_type = type.report_name;
  plan.macs = type.layer->macs(d);
  type.layer->plan(config, d, &plan);
  plan_post_op(config, d, &plan);  // a lookup stage after the layer (npu_post_op.h)
  return plan;
}

ScheduleTimes schedule_layer(const NpuConfig& config, const LayerPlan& plan, uint64_t start,
                             const NpuDmaFn& dma) {
  ScheduleTimes times;
  uint64_t dma_busy = 0;
  auto transfer = [&](uint64_t at, NpuStream stream, uint64_t bytes) {
    const NpuDmaSpan span = dma(at, stream, bytes);
    dma_busy += span.end - span.begin;
    return span.end;
  };
  auto load = [&](const NpuTile& t, uint64_t at) {
    uint64_t done = at;
    if (t.input_bytes) done = transfer(at, NpuStream::kInput, t.input_bytes);
    if (t.weight_bytes) done = transfer(std::max(at, done), NpuStream::kWeights, t.weight_bytes);
    return done;
  };
  uint64_t t = start + config.setup_cycles;
  if (plan.tiles.empty()) {
    times.end = t;
    return times;
  }
  uint64_t ready = load(plan.tiles[0], t);
  uint64_t compute_start = ready;
  uint64_t end = ready;
  for (size_t i = 0; i < plan.tiles.size(); ++i) {
    const NpuTile& tile = plan.tiles[i];
    // Double buffered, the next tile loads into the other half of the buffer while this one
    // computes; otherwise after this one's compute (below).
    const bool next = i + 1 < plan.tiles.size();
    uint64_t next_ready = 0;
    if (next && config.double_buffer) next_ready = load(plan.tiles[i + 1], compute_start);
    const uint64_t compute_end = compute_start + tile.compute_cycles;
    times.compute_cycles += tile.compute_cycles;
    end = std::max(end, compute_end);
    if (tile.output_bytes) {
      // The results leave the post-processing pipeline writeback_cycles after the compute.
      const uint64_t done = transfer(compute_end + config.writeback_cycles, NpuStream::kOutput,
                                     tile.output_bytes);
      end = std::max(end, done);
    }
    compute_start = std::max(compute_end, next_ready);
    if (next && !config.double_buffer) compute_start = load(plan.tiles[i + 1], compute_end);
  }
  times.end = end;
  times.dma_cycles = dma_busy;
  return times;
}

double rknn_mac_usage(const NpuConfig& config, uint64_t macs, uint32_t cores_used,
                      uint64_t elapsed_cycles) {
  const double peak = config.throughput[0] * config.rows * config.columns * cores_used;
  return elapsed_cycles ? static_cast<double>(macs) / (peak * elapsed_cycles) : 0.0;
}

NpuDmaFn ideal_dma(const NpuConfig& config) {
  auto free_at = std::make_shared<uint64_t>(0);
  const uint64_t rate = config.dma.bytes_per_cycle;
  return [free_at, rate](uint64_t start, NpuStream, uint64_t bytes) {
    const uint64_t begin = std::max(start, *free_at);
    *free_at = begin + (bytes + rate - 1) / rate;
    return NpuDmaSpan{begin, *free_at};
  };
}

}  // namespace socsim
