"""Resizing of the two spatial axes of NCHW tensors (ONNX Resize, modes nearest and linear;
torch's nn.Upsample and F.interpolate export as it).

The compiler evaluates ONNX's coordinate transformation (half_pixel, pytorch_half_pixel,
align_corners, asymmetric, tf_half_pixel_for_nearest) and nearest rounding modes
(round_prefer_floor, round_prefer_ceil, floor, ceil) in float64 once per output row and per
output column, and hands the kernels tables: `index` holds the source row of every output
row, then the source column of every output column (nearest: [Ho + Wo]; bilinear:
[Ho + Wo, 2], the two neighbours), `weight` the weight of the second neighbour. Source
coordinates are clamped to the input (ONNX's and torch's edge rule).

Quantised, both keep the input's quantisation. Nearest copies values; bilinear interpolates
the int8 values with weights in units of 2^-15 (w = round(2^15 f)):
y = round_shift((x00 (2^15 - wx) + x01 wx)(2^15 - wy) + (x10 (2^15 - wx) + x11 wx) wy, 30),
which the zero point passes through unchanged (the weights sum to one).
"""

from socsim_schema.core import NpuLayer, Operand, Operator, register

_INDEX_DOC = "source row of every output row, then source column of every output column"

UPSAMPLE_NEAREST2D, UPSAMPLE_BILINEAR2D, QUANTIZED_UPSAMPLE_BILINEAR2D = register(
    Operator("aten::upsample_nearest2d.out", "upsample_nearest2d",
             "y[n, c, i, j] = x[n, c, index[i], index[Ho + j]] (ONNX Resize, mode nearest)",
             inputs=(Operand("x", npu_slot="input"),
                     Operand("index", "int32", "[Ho + Wo]: " + _INDEX_DOC, npu_slot="weights")),
             outputs=(Operand("out", npu_slot="output"),), dtypes=("float32", "int8"),
             kernel="upsample", onnx=("Resize",),
             npu=NpuLayer(18, "Resize", ("resize_nearest",), "resize")),
    Operator("aten::upsample_bilinear2d.out", "upsample_bilinear2d",
             "bilinear interpolation between the two neighbours of each output row and column",
             inputs=(Operand("x"), Operand("index", "int32", "[Ho + Wo, 2]: " + _INDEX_DOC),
                     Operand("weight", "float32", "[Ho + Wo]: the second neighbour's weight")),
             kernel="upsample", quantized="quantized_decomposed::upsample_bilinear2d.out"),
    Operator("quantized_decomposed::upsample_bilinear2d.out", "quantized_upsample_bilinear2d",
             "bilinear interpolation of the int8 values, weights in units of 2^-15",
             inputs=(Operand("x"), Operand("index", "int32", "[Ho + Wo, 2]: " + _INDEX_DOC),
                     Operand("weight", "int32", "[Ho + Wo]: round(2^15 w)")), dtypes=("int8",),
             kernel="upsample"))
