"""2-D pooling (NCHW): max, average and global average.

Windows follow PyTorch: with ceil_mode the last window must start inside the input or its
leading padding; max pooling ignores padding; the average divisor counts the window's
positions inside the padded input (count_include_pad) or inside the input.
"""

from socsim_schema.core import Arg, NpuLayer, Operand, Operator, register

GEOMETRY = (Arg("kernel_h"), Arg("kernel_w"), Arg("stride_h"), Arg("stride_w"),
            Arg("pad_top"), Arg("pad_left"), Arg("pad_bottom"), Arg("pad_right"),
            Arg("ceil_mode", "bool"))

REQUANT = (Arg("zp_in"), Arg("zp_out"), Arg("m", doc="23-bit multiplier"),
           Arg("n", doc="shift, at most 30"))

_X = (Operand("x", npu_slot="input"),)

_Y = (Operand("out", npu_slot="output"),)

_INCLUDE_PAD = Arg("count_include_pad", "bool")

MAX_POOL2D, AVG_POOL2D, QUANTIZED_AVG_POOL2D = register(
    Operator("aten::max_pool2d.out", "max_pool2d", "maximum over each window (padding ignored)",
             inputs=_X, outputs=_Y, args=GEOMETRY, dtypes=("float32", "int8"), kernel="max_pool2d",
             npu=NpuLayer(5, "MaxPool", ("max_pool2d",), "pooling"), onnx=("MaxPool",)),
    Operator("aten::avg_pool2d.out", "avg_pool2d", "mean over each window", inputs=_X, outputs=_Y,
             args=GEOMETRY + (_INCLUDE_PAD,), kernel="avg_pool2d", onnx=("AveragePool",),
             quantized="quantized_decomposed::avg_pool2d.out"),
    Operator("quantized_decomposed::avg_pool2d.out", "quantized_avg_pool2d",
             "div_round(sum (x - zp_in) m, count 2^n) + zp_out, saturated", inputs=_X, outputs=_Y,
             args=GEOMETRY + (_INCLUDE_PAD,) + REQUANT, dtypes=("int8",), kernel="avg_pool2d",
             npu=NpuLayer(6, "AveragePool", ("avg_pool2d",), "pooling")))

ADAPTIVE_AVG_POOL2D, QUANTIZED_ADAPTIVE_AVG_POOL2D = register(
    Operator("aten::adaptive_avg_pool2d.out", "adaptive_avg_pool2d",
             "global average pooling: NCHW -> NC11, the mean of each plane", inputs=_X, outputs=_Y,
             kernel="global_avg_pool2d", onnx=("GlobalAveragePool",),
             quantized="quantized_decomposed::adaptive_avg_pool2d.out"),
    Operator("quantized_decomposed::adaptive_avg_pool2d.out", "quantized_adaptive_avg_pool2d",
             "div_round(sum (x - zp_in) m, H W 2^n) + zp_out per plane, saturated", inputs=_X,
             outputs=_Y, args=REQUANT, dtypes=("int8",), kernel="global_avg_pool2d",
             npu=NpuLayer(7, "GlobalAveragePool", ("global_avg_pool2d",), "pooling")))

# ExecuTorch's form of torch's adaptive average pooling to any output size (AlexNet's and
# VGG's 7x7 before their classifiers): the output's H and W give the windows.
(ADAPTIVE_AVG_POOL2D_WINDOWS,) = register(
    Operator("aten::_adaptive_avg_pool2d.out", "adaptive_avg_pool2d_windows",
             "mean over adaptive windows: output row i of Ho averages input rows floor(i H / Ho) "
             "to ceil((i + 1) H / Ho) - 1 (columns alike), summed in row-major order from 0 "
             "and divided by the window's element count", inputs=_X, outputs=_Y,
             kernel="adaptive_avg_pool2d"))

# The indices of ExecuTorch's max_pool2d_with_indices: per window the flat position h W + w of
# its first maximum in the input plane (a NaN wins), int64. The runtime has no int64 element
# type: the output is the indices' little-endian bytes, uint8 with a trailing axis of 8.
(MAX_POOL2D_INDICES,) = register(
    Operator("aten::max_pool2d_indices.out", "max_pool2d_indices",
             "flat position h W + w of each window's first maximum (NaN wins), as int64 "
             "little-endian bytes", inputs=(Operand("x"),),
             outputs=(Operand("out", "uint8", "[N, C, Ho, Wo, 8]: int64 little-endian"),),
             args=GEOMETRY, kernel="max_pool2d"))
