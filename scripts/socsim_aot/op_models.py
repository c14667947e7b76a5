"""One-node and one-family ONNX models of the schema's operators, compiled for the end-to-end
tests.

Two kinds of model, each written into the output directory as NAME.onnx (built with
onnx.helper), NAME.input.bin (the inputs, random normal times 3, seed 0, raw in order),
NAME.calibration.npz and three programs: NAME_f32.pte, NAME_int8.pte and
NAME_int8_npu.pte (partitioned for the --npu-config preset):

- every ONNX operator that lowers one to one to an operator of one input and no arguments
  (schema.simple_onnx_operators(): Relu, Tanh, GlobalAveragePool, ...): x [1, 16, 8, 8] ->
  OP -> y. A new operator of this kind is tested on the simulator (tests/runtime/) without
  another line;
- one model per family of operators with attributes or constant inputs (FAMILIES: reduce,
  ...), a few nodes that use the family's operators the ways models do; among them the
  recurrent layers (lstm, gru: ONNX LSTM and GRU, which the front end unrolls; lstm_cell,
  gru_cell: the nodes torch exports for nn.LSTMCell and nn.GRUCell).

The tests run f32 and int8 against the numpy reference, and the NPU program against the CPU
one (identical outputs).

Example:
  python3 -m socsim_aot.op_models -o build/ops --npu-config configs/npu/rk3588-like.yaml
  python3 -m socsim_aot.op_models --list
"""

import argparse
import os
import sys

import numpy as np

from socsim_aot import compiler
from socsim_aot import npu_partition
from socsim_aot import schema

SHAPE = (1, 16, 8, 8)
SIMPLE_OPSET = 14   # HardSwish
FAMILY_OPSET = 17   # LayerNormalization


def _i64(name, values):
    from onnx import numpy_helper
    return numpy_helper.from_array(np.asarray(values, np.int64), name)


def _reduce(h):
    """ReduceMean over channels (kept), ReduceSum over H and W (axes as an input, dropped),
    ReduceMax over W, and ReduceMean over H and W (global average pooling, on the NPU)."""
    nodes = [h.make_node("ReduceMean", ["x"], ["mean_c"], axes=[1], keepdims=1),
             h.make_node("ReduceSum", ["x", "hw"], ["sum_hw"], keepdims=0),
             h.make_node("ReduceMax", ["x"], ["max_w"], axes=[3], keepdims=0),
             h.make_node("ReduceMean", ["x"], ["mean_hw"], axes=[2, 3], keepdims=0)]
    return nodes, [_i64("hw", [2, 3])], {"x": SHAPE}, ["mean_c", "sum_hw", "max_w", "mean_hw"]


def _data_movement(h):
    """Slice (negative step, clamped ends), Split into unequal parts, Gather with a scalar and
    with a matrix of indices, and Pad (constant, reflect, edge)."""
    nodes = [h.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["sliced"]),
             h.make_node("Split", ["x", "parts"], ["part0", "part1", "part2"], axis=1),
             h.make_node("Gather", ["x", "scalar"], ["channel"], axis=1),
             h.make_node("Gather", ["x", "matrix"], ["rows"], axis=2),
             h.make_node("Pad", ["x", "pads", "value"], ["padded"], mode="constant"),
             h.make_node("Pad", ["x", "pads_hw"], ["reflected"], mode="reflect"),
             h.make_node("Pad", ["x", "pads_hw"], ["edged"], mode="edge")]
    from onnx import numpy_helper
    inits = [_i64("starts", [1, -1, 2]), _i64("ends", [2 ** 62, -2 ** 62, 7]),
             _i64("axes", [1, 3, 2]), _i64("steps", [2, -2, 1]), _i64("parts", [3, 8, 5]),
             _i64("scalar", 5), _i64("matrix", [[0, 7], [-1, 3], [4, 4]]),
             _i64("pads", [0, 1, 0, 2, 0, 0, 1, 1]),
             numpy_helper.from_array(np.array(0.75, np.float32), "value"),
             _i64("pads_hw", [0, 0, 3, 1, 0, 0, 2, 4])]
    return nodes, inits, {"x": SHAPE}, ["sliced", "part0", "part1", "part2", "channel", "rows",
                                        "padded", "reflected", "edged"]


def _softmax_div(h):
    """Softmax over channels and over H, and Div by a constant per channel and by an
    activation bounded away from 0 (1 + Sigmoid)."""
    from onnx import numpy_helper
    nodes = [h.make_node("Softmax", ["x"], ["soft_c"], axis=1),
             h.make_node("Softmax", ["x"], ["soft_h"], axis=-2),
             h.make_node("Div", ["x", "per_channel"], ["scaled"]),
             h.make_node("Sigmoid", ["x"], ["gate"]),
             h.make_node("Add", ["gate", "one"], ["divisor"]),
             h.make_node("Div", ["x", "divisor"], ["quotient"])]
    channels = np.linspace(0.5, 2.0, SHAPE[1], dtype=np.float32).reshape(SHAPE[1], 1, 1)
    inits = [numpy_helper.from_array(channels, "per_channel"),
             numpy_helper.from_array(np.array(1.0, np.float32), "one")]
    return nodes, inits, {"x": SHAPE}, ["soft_c", "soft_h", "scaled", "quotient"]


def _attention(h):
    """Scaled dot-product attention over the last two axes, x as query, key and value
    (MatMul of x and its transpose, Softmax, MatMul with x), and a product whose right
    operand broadcasts over the channels."""
    from onnx import numpy_helper
    nodes = [h.make_node("Transpose", ["x"], ["xt"], perm=[0, 1, 3, 2]),
             h.make_node("MatMul", ["x", "xt"], ["scores"]),
             h.make_node("Div", ["scores", "root_d"], ["scaled"]),
             h.make_node("Softmax", ["scaled"], ["weights"], axis=-1),
             h.make_node("MatMul", ["weights", "x"], ["attended"]),
             h.make_node("Slice", ["x", "zero", "one", "one"], ["first"]),
             h.make_node("MatMul", ["x", "first"], ["broadcast"])]
    inits = [numpy_helper.from_array(np.array(np.sqrt(SHAPE[-1]) * 3, np.float32), "root_d"),
             _i64("zero", [0]), _i64("one", [1])]
    return nodes, inits, {"x": SHAPE}, ["attended", "broadcast"]


def _layer_norm(h):
    """LayerNormalization over the last axis (a transformer's) and over H and W, with scale
    and bias."""
    from onnx import numpy_helper
    nodes = [h.make_node("LayerNormalization", ["x", "gamma_w", "beta_w"], ["norm_w"], axis=-1),
             h.make_node("LayerNormalization", ["x", "gamma_hw", "beta_hw"], ["norm_hw"],
                         axis=2, epsilon=1e-3)]
    w = SHAPE[-1]
    hw = SHAPE[-2] * SHAPE[-1]
    inits = [numpy_helper.from_array(np.linspace(0.5, 1.5, w, dtype=np.float32), "gamma_w"),
             numpy_helper.from_array(np.linspace(-1, 1, w, dtype=np.float32), "beta_w"),
             numpy_helper.from_array(np.linspace(2, -1, hw, dtype=np.float32)
                                     .reshape(SHAPE[-2:]), "gamma_hw"),
             numpy_helper.from_array(np.full(SHAPE[-2:], 0.25, np.float32), "beta_hw")]
    return nodes, inits, {"x": SHAPE}, ["norm_w", "norm_hw"]


def _resize(h):
    """Resize: nearest up by scales (asymmetric, floor: torch's nn.Upsample), nearest to
    sizes (half_pixel, round_prefer_ceil), bilinear up (pytorch_half_pixel), bilinear to odd
    sizes (align_corners) and bilinear down (half_pixel)."""
    from onnx import numpy_helper

    def scales(name, values):
        return numpy_helper.from_array(np.array(values, np.float32), name)
    nodes = [h.make_node("Resize", ["x", "", "twice"], ["nearest_up"], mode="nearest",
                         coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
             h.make_node("Resize", ["x", "", "", "odd"], ["nearest_sized"], mode="nearest",
                         nearest_mode="round_prefer_ceil"),
             h.make_node("Resize", ["x", "", "twice"], ["bilinear_up"], mode="linear",
                         coordinate_transformation_mode="pytorch_half_pixel"),
             h.make_node("Resize", ["x", "", "", "odd"], ["bilinear_corners"], mode="linear",
                         coordinate_transformation_mode="align_corners"),
             h.make_node("Resize", ["x", "", "half"], ["bilinear_down"], mode="linear")]
    inits = [scales("twice", [1, 1, 2, 2]), scales("half", [1, 1, 0.5, 0.5]),
             _i64("odd", [1, SHAPE[1], 11, 5])]
    return nodes, inits, {"x": SHAPE}, ["nearest_up", "nearest_sized", "bilinear_up",
                                        "bilinear_corners", "bilinear_down"]


def _upsample_neck(h):
    """A detection neck's upsampling between convolutions (torchvision FPN, YOLO): Conv,
    nn.Upsample(scale_factor=2) (Resize nearest, asymmetric, floor), Conv; a 3 x 2 nearest
    resize in half_pixel (also a repeat of rows and columns) and a 2x align_corners
    resize to odd sizes (not a repeat: it stays on the CPU)."""
    from onnx import numpy_helper
    c = SHAPE[1]
    nodes = [h.make_node("Conv", ["x", "w_in"], ["lateral"]),
             h.make_node("Resize", ["lateral", "", "twice"], ["up"], mode="nearest",
                         coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
             h.make_node("Conv", ["up", "w_out"], ["smooth"]),
             h.make_node("Resize", ["x", "", "three_by_two"], ["up32"], mode="nearest",
                         coordinate_transformation_mode="half_pixel"),
             h.make_node("Resize", ["x", "", "", "odd"], ["corners"], mode="nearest",
                         coordinate_transformation_mode="align_corners")]
    inits = [_conv_weights("w_in", c, c, 11), _conv_weights("w_out", c, c, 12),
             numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "twice"),
             numpy_helper.from_array(np.array([1, 1, 3, 2], np.float32), "three_by_two"),
             _i64("odd", [1, c, 15, 13])]
    return nodes, inits, {"x": SHAPE}, ["smooth", "up32", "corners"]


def _weights(name, shape, seed):
    from onnx import numpy_helper
    rng = np.random.default_rng(seed)
    return numpy_helper.from_array((rng.standard_normal(shape) * 0.3).astype(np.float32), name)


RNN_STEPS, RNN_FEATURES, RNN_HIDDEN = 5, 8, 16


def _lstm(h):
    """ONNX LSTM (unrolled by the front end, passes/unroll_rnn.py): one forward layer with the
    initial hidden and cell states as inputs, batch 2, every output used; then a reverse layer
    without initial states reading the first one's sequence."""
    hid = RNN_HIDDEN
    nodes = [h.make_node("LSTM", ["x", "w", "r", "b", "", "h0", "c0"], ["y", "y_h", "y_c"],
                         hidden_size=hid),
             h.make_node("Squeeze", ["y", "one"], ["y3"]),
             h.make_node("LSTM", ["y3", "w2", "r2", "b2"], ["y2"], hidden_size=hid,
                         direction="reverse")]
    inits = [_weights("w", [1, 4 * hid, RNN_FEATURES], 1), _weights("r", [1, 4 * hid, hid], 2),
             _weights("b", [1, 8 * hid], 3), _weights("w2", [1, 4 * hid, hid], 4),
             _weights("r2", [1, 4 * hid, hid], 5), _weights("b2", [1, 8 * hid], 6),
             _i64("one", [1])]
    state = (1, 2, hid)
    return nodes, inits, {"x": (RNN_STEPS, 2, RNN_FEATURES), "h0": state, "c0": state}, \
        ["y_h", "y_c", "y2"]


def _gru(h):
    """ONNX GRU (unrolled by the front end): bidirectional with linear_before_reset=1 (torch's
    export), no initial state; then a forward layer with linear_before_reset=0 and an initial
    state."""
    hid = RNN_HIDDEN
    nodes = [h.make_node("GRU", ["x", "w", "r", "b"], ["y", "y_h"], hidden_size=hid,
                         direction="bidirectional", linear_before_reset=1),
             h.make_node("Reshape", ["y", "rows"], ["y3"]),
             h.make_node("GRU", ["y3", "w2", "r2", "b2", "", "h0"], ["y2"], hidden_size=hid)]
    inits = [_weights("w", [2, 3 * hid, RNN_FEATURES], 7), _weights("r", [2, 3 * hid, hid], 8),
             _weights("b", [2, 6 * hid], 9), _weights("w2", [1, 3 * hid, 2 * hid], 10),
             _weights("r2", [1, 3 * hid, hid], 11), _weights("b2", [1, 6 * hid], 12),
             _i64("rows", [RNN_STEPS, 1, 2 * hid])]
    return nodes, inits, {"x": (RNN_STEPS, 1, RNN_FEATURES), "h0": (1, 1, hid)}, ["y_h", "y2"]


def _cell_step(h, kind, x, state, t):
    """One step of nn.LSTMCell / nn.GRUCell as torch exports it: two Gemms, Split, gates."""
    p = f"{kind}{t}_"
    nodes = [h.make_node("Gemm", [x, "w_ih", "b_ih"], [p + "xi"], transB=1),
             h.make_node("Gemm", [state[0], "w_hh", "b_hh"], [p + "hh"], transB=1)]
    if kind == "lstm":
        nodes += [h.make_node("Add", [p + "xi", p + "hh"], [p + "g"]),
                  h.make_node("Split", [p + "g", "sizes"], [p + q for q in "ifco"], axis=1)]
        nodes += [h.make_node("Sigmoid", [p + q], [p + q + "s"]) for q in "ifo"]
        nodes += [h.make_node("Tanh", [p + "c"], [p + "ct"]),
                  h.make_node("Mul", [p + "fs", state[1]], [p + "fc"]),
                  h.make_node("Mul", [p + "is", p + "ct"], [p + "ic"]),
                  h.make_node("Add", [p + "fc", p + "ic"], [p + "c_new"]),
                  h.make_node("Tanh", [p + "c_new"], [p + "c_t"]),
                  h.make_node("Mul", [p + "os", p + "c_t"], [p + "h_new"])]
        return nodes, (p + "h_new", p + "c_new")
    nodes += [h.make_node("Split", [p + "xi", "sizes"], [p + q for q in ("xr", "xz", "xn")],
                          axis=1),
              h.make_node("Split", [p + "hh", "sizes"], [p + q for q in ("hr", "hz", "hn")],
                          axis=1),
              h.make_node("Add", [p + "xr", p + "hr"], [p + "r_pre"]),
              h.make_node("Sigmoid", [p + "r_pre"], [p + "r"]),
              h.make_node("Add", [p + "xz", p + "hz"], [p + "z_pre"]),
              h.make_node("Sigmoid", [p + "z_pre"], [p + "z"]),
              h.make_node("Mul", [p + "r", p + "hn"], [p + "rh"]),
              h.make_node("Add", [p + "xn", p + "rh"], [p + "n_pre"]),
              h.make_node("Tanh", [p + "n_pre"], [p + "n"]),
              h.make_node("Sub", ["one", p + "z"], [p + "zc"]),
              h.make_node("Mul", [p + "zc", p + "n"], [p + "zn"]),
              h.make_node("Mul", [p + "z", state[0]], [p + "zh"]),
              h.make_node("Add", [p + "zn", p + "zh"], [p + "h_new"])]
    return nodes, (p + "h_new",)


def _cell(kind):
    def build(h):
        """Two steps of the cell (nn.LSTMCell / nn.GRUCell as torch exports them), the states
        given as inputs."""
        from onnx import numpy_helper
        hid, gates = RNN_HIDDEN, 4 if kind == "lstm" else 3
        state = ("h0", "c0") if kind == "lstm" else ("h0",)
        nodes = [h.make_node("Split", ["x", "steps"], ["x0", "x1"], axis=0)]
        for t in range(2):
            more, state = _cell_step(h, kind, f"x{t}", state, t)
            nodes += more
        inits = [_weights("w_ih", [gates * hid, RNN_FEATURES], 13),
                 _weights("w_hh", [gates * hid, hid], 14), _weights("b_ih", [gates * hid], 15),
                 _weights("b_hh", [gates * hid], 16), _i64("sizes", [hid] * gates),
                 _i64("steps", [2, 2]), numpy_helper.from_array(np.array(1, np.float32), "one")]
        inputs = {"x": (4, RNN_FEATURES), "h0": (2, hid)}
        if kind == "lstm":
            inputs["c0"] = (2, hid)
        return nodes, inits, inputs, list(state)
    return build


def _conv_weights(name, cout, cin, seed):
    from onnx import numpy_helper
    rng = np.random.default_rng(seed)
    w = (rng.standard_normal((cout, cin, 1, 1)) / np.sqrt(cin)).astype(np.float32)
    return numpy_helper.from_array(w, name)


def _squeeze_excitation(h):
    """Squeeze-and-excitation as torchvision builds it (EfficientNet, MobileNetV3, RegNetY):
    global average pool, 1x1 conv, ReLU, 1x1 conv, Sigmoid, and `scale * x`: a Mul of the
    [1, C, H, W] activation by a [1, C, 1, 1] one, the per-channel operand first."""
    c, r = SHAPE[1], SHAPE[1] // 4
    nodes = [h.make_node("Conv", ["x", "w_in"], ["features"]),
             h.make_node("GlobalAveragePool", ["features"], ["pooled"]),
             h.make_node("Conv", ["pooled", "w_reduce"], ["reduced"]),
             h.make_node("Relu", ["reduced"], ["reduced_relu"]),
             h.make_node("Conv", ["reduced_relu", "w_expand"], ["expanded"]),
             h.make_node("Sigmoid", ["expanded"], ["scale"]),
             h.make_node("Mul", ["scale", "features"], ["excited"])]
    inits = [_conv_weights("w_in", c, c, 1), _conv_weights("w_reduce", r, c, 2),
             _conv_weights("w_expand", c, r, 3)]
    return nodes, inits, {"x": SHAPE}, ["excited"]


def _lookup_fusion(h):
    """Table lookups after the layers an NPU fuses them into, and one after none: Conv then
    Sigmoid, Conv then HardSwish, Conv then HardSigmoid, their Add then Tanh, Conv then SiLU
    (Sigmoid and Mul, as torch exports nn.SiLU), Conv then GELU (the erf form) and Tanh of the
    model's input (a stand-alone lookup layer)."""
    from onnx import numpy_helper
    c = SHAPE[1]
    nodes = [h.make_node("Conv", ["x", "w_sig"], ["conv_sig"]),
             h.make_node("Sigmoid", ["conv_sig"], ["sigmoid"]),
             h.make_node("Conv", ["x", "w_hs"], ["conv_hs"]),
             h.make_node("HardSwish", ["conv_hs"], ["hardswish"]),
             h.make_node("Conv", ["x", "w_hsig"], ["conv_hsig"]),
             h.make_node("HardSigmoid", ["conv_hsig"], ["hardsigmoid"], alpha=1.0 / 6),
             h.make_node("Add", ["hardswish", "hardsigmoid"], ["sum"]),
             h.make_node("Tanh", ["sum"], ["tanh"]),
             h.make_node("Conv", ["x", "w_silu"], ["conv_silu"]),
             h.make_node("Sigmoid", ["conv_silu"], ["gate"]),
             h.make_node("Mul", ["conv_silu", "gate"], ["silu"]),
             h.make_node("Conv", ["x", "w_gelu"], ["conv_gelu"]),
             h.make_node("Div", ["conv_gelu", "sqrt2"], ["scaled"]),
             h.make_node("Erf", ["scaled"], ["erf"]),
             h.make_node("Add", ["erf", "one_f"], ["erf1"]),
             h.make_node("Mul", ["conv_gelu", "erf1"], ["gelu2"]),
             h.make_node("Mul", ["gelu2", "half"], ["gelu"]),
             h.make_node("Tanh", ["x"], ["tanh_x"])]
    inits = [_conv_weights(n, c, c, seed) for seed, n in
             enumerate(("w_sig", "w_hs", "w_hsig", "w_silu", "w_gelu"), 4)]
    inits += [numpy_helper.from_array(np.array(v, np.float32), n)
              for n, v in (("sqrt2", np.sqrt(2.0)), ("one_f", 1.0), ("half", 0.5))]
    return nodes, inits, {"x": SHAPE}, ["sigmoid", "tanh", "silu", "gelu", "tanh_x"]


def _conv1d(h):
    """1-D layers as a keyword-spotting net has them, on [N, C, L] (run as 2-D windows of
    height 1): a strided Conv with ReLU, a dilated depthwise Conv, MaxPool, AveragePool and
    GlobalAveragePool."""
    from onnx import numpy_helper
    rng = np.random.default_rng(11)
    c = SHAPE[1]
    w1 = (rng.standard_normal((c, c, 5)) / np.sqrt(5 * c)).astype(np.float32)
    w2 = (rng.standard_normal((c, 1, 3)) / np.sqrt(3)).astype(np.float32)
    nodes = [h.make_node("Conv", ["x", "w1"], ["conv"], strides=[2], pads=[2, 2]),
             h.make_node("Relu", ["conv"], ["relu"]),
             h.make_node("Conv", ["relu", "w2"], ["dilated"], dilations=[2], pads=[2, 2],
                         group=c),
             h.make_node("MaxPool", ["dilated"], ["max"], kernel_shape=[3], strides=[2],
                         pads=[1, 1]),
             h.make_node("AveragePool", ["relu"], ["avg"], kernel_shape=[2], strides=[2]),
             h.make_node("GlobalAveragePool", ["max"], ["pooled"])]
    inits = [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2")]
    return nodes, inits, {"x": (1, c, 40)}, ["avg", "pooled", "max"]


def _conv_transpose(h):
    """ConvTranspose as decoders use it: 2-D with stride 2, padding and output_padding, 2-D
    grouped with a stride of 3 and a dilation, and 1-D; each a zero insertion and a
    convolution (on the NPU when quantised)."""
    from onnx import numpy_helper
    rng = np.random.default_rng(12)
    c = SHAPE[1]

    def weights(name, shape):
        return numpy_helper.from_array(
            (rng.standard_normal(shape) / np.sqrt(np.prod(shape[1:]) * 2)).astype(np.float32),
            name)
    nodes = [h.make_node("ConvTranspose", ["x", "w1", "b1"], ["up"], strides=[2, 2],
                         pads=[1, 1, 1, 1], output_padding=[1, 1]),
             h.make_node("Relu", ["up"], ["up_relu"]),
             h.make_node("ConvTranspose", ["x", "w2"], ["grouped"], strides=[3, 3], group=4,
                         dilations=[2, 1]),
             h.make_node("Reshape", ["x", "rows"], ["seq"]),
             h.make_node("ConvTranspose", ["seq", "w3"], ["up1d"], strides=[2], pads=[1, 0])]
    inits = [weights("w1", (c, 8, 3, 3)), numpy_helper.from_array(
        rng.standard_normal(8).astype(np.float32) * 0.1, "b1"), weights("w2", (c, 2, 2, 3)),
             weights("w3", (c, 4, 4)), _i64("rows", [1, c, 64])]
    return nodes, inits, {"x": SHAPE}, ["up_relu", "grouped", "up1d"]


def _attention_masks(h):
    """InstanceNormalization, an Einsum attention (bhqd,bhkd->bhqk) whose scores get a causal
    -inf mask by Add and by Where before Softmax (fused into a masked softmax)."""
    from onnx import numpy_helper
    rng = np.random.default_rng(13)
    c = SHAPE[1]
    t = SHAPE[2] * SHAPE[3]
    upper = np.triu(np.ones((t, t), bool), 1)
    nodes = [h.make_node("InstanceNormalization", ["x", "gamma", "beta"], ["normed"],
                         epsilon=1e-5),
             h.make_node("Reshape", ["normed", "heads"], ["q"]),
             h.make_node("Einsum", ["q", "q"], ["scores"], equation="bhdq,bhdk->bhqk"),
             h.make_node("Add", ["scores", "additive"], ["masked"]),
             h.make_node("Softmax", ["masked"], ["att"], axis=-1),
             h.make_node("Where", ["causal", "minus_inf", "scores"], ["selected"]),
             h.make_node("Softmax", ["selected"], ["att2"], axis=-1)]
    inits = [numpy_helper.from_array(rng.uniform(0.5, 1.5, c).astype(np.float32), "gamma"),
             numpy_helper.from_array(rng.uniform(-0.5, 0.5, c).astype(np.float32), "beta"),
             _i64("heads", [1, 4, c // 4, t]),
             numpy_helper.from_array(np.where(upper, -np.inf, 0).astype(np.float32),
                                     "additive"),
             numpy_helper.from_array(upper, "causal"),
             numpy_helper.from_array(np.array(-np.inf, np.float32), "minus_inf")]
    return nodes, inits, {"x": SHAPE}, ["att", "att2", "normed"]


# name -> builder(onnx.helper) -> (nodes, initializers, {input: shape}, output names)
FAMILIES = {"reduce": _reduce, "data_movement": _data_movement, "softmax_div": _softmax_div,
            "attention": _attention, "layer_norm": _layer_norm, "resize": _resize,
            "upsample_neck": _upsample_neck,
            "lstm": _lstm, "gru": _gru, "lstm_cell": _cell("lstm"), "gru_cell": _cell("gru"),
            "squeeze_excitation": _squeeze_excitation, "lookup_fusion": _lookup_fusion,
            "conv1d": _conv1d, "conv_transpose": _conv_transpose,
            "attention_masks": _attention_masks}


def names():
    """Every model this module builds: the simple operators, then the families."""
    return list(schema.simple_onnx_operators()) + list(FAMILIES)


def make_model(name: str, path: str):
    """The model `name` (a simple ONNX operator or a family), shapes from ONNX shape
    inference; returns its input shapes."""
    import onnx
    from onnx import TensorProto, helper
    if name in FAMILIES:
        nodes, inits, inputs, outputs = FAMILIES[name](helper)
        opset = FAMILY_OPSET
    else:
        nodes = [helper.make_node(name, ["x"], ["y"], name=name.lower())]
        inits, inputs, outputs, opset = [], {"x": SHAPE}, ["y"], SIMPLE_OPSET
    graph = helper.make_graph(
        nodes, name.lower(),
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(s)) for n, s in inputs.items()],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in outputs], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    for i, out in enumerate(inferred.graph.output):
        model.graph.output[i].CopyFrom(out)
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return list(inputs.values())


def build(name: str, out_dir: str, npu_config: str):
    """Writes the model, its input and its three programs; returns the files written."""
    base = os.path.join(out_dir, name)
    shapes = make_model(name, base + ".onnx")
    rng = np.random.default_rng(0)
    with open(base + ".input.bin", "wb") as f:
        for shape in shapes:
            f.write((rng.standard_normal(shape) * 3).astype(np.float32).tobytes())
    np.savez(base + ".calibration.npz",
             **{f"x{i:02d}": (rng.standard_normal((8,) + tuple(s)) * 3).astype(np.float32)
                for i, s in enumerate(shapes)})
    compiler.compile_file(base + ".onnx", base + "_f32.pte")
    compiler.compile_file(base + ".onnx", base + "_int8.pte", quantize="int8",
                          calibration=base + ".calibration.npz")
    npu = compiler.compile_file(base + ".onnx", base + "_int8_npu.pte", quantize="int8",
                                calibration=base + ".calibration.npz", delegate="npu",
                                npu_config=npu_config)
    on_npu = any(d.backend == "npu" for d in npu.delegates)
    if name not in FAMILIES:
        target = schema.onnx_operators()[name]
        quantized = schema.get(target.quantized) if target.quantized else target
        listed = npu_partition.load_npu_operators(npu_config)
        if quantized.npu is not None and set(quantized.npu.classes) & listed and not on_npu:
            raise compiler.CompileError(f"{name}: the preset lists {quantized.name} but the "
                                        "compiler kept it on the CPU")
    return [base + suffix for suffix in (".onnx", ".input.bin", "_f32.pte", "_int8.pte",
                                         "_int8_npu.pte")], on_npu


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Build one-node ONNX models of the operator schema's simple operators and "
                    "one model per operator family, and compile each to float32, int8 and "
                    "int8-on-the-NPU programs.")
    parser.add_argument("-o", "--out-dir", help="directory for the files")
    parser.add_argument("--npu-config",
                        help="NPU preset the *_int8_npu programs are partitioned for")
    parser.add_argument("--list", action="store_true",
                        help="print the model names (a CMake list) and exit")
    parser.add_argument("models", nargs="*", help="models to build (default: all, --list)")
    args = parser.parse_args(argv)
    if args.list:
        print(";".join(names()))
        return 0
    if not args.out_dir or not args.npu_config:
        parser.error("give -o/--out-dir and --npu-config (or --list)")
    os.makedirs(args.out_dir, exist_ok=True)
    try:
        for name in args.models or names():
            files, on_npu = build(name, args.out_dir, args.npu_config)
            print(f"op_models: {name}: {', '.join(os.path.basename(f) for f in files)}"
                  f"{' (NPU delegate)' if on_npu else ''}")
    except (compiler.CompileError, KeyError) as e:
        print(f"op_models: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
