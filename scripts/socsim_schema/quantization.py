"""Conversions between float32 and int8 and between two int8 quantisations. The compiler
inserts them (graph inputs, graph outputs, concatenation inputs); no ONNX node lowers to
them.
"""

from socsim_schema.core import Arg, NpuLayer, Operand, Operator, register

QUANTIZE, DEQUANTIZE, REQUANTIZE = register(
    Operator("quantized_decomposed::quantize_per_tensor.out", "quantize_per_tensor",
             "clamp(rint(x / scale) + zero_point, -128, 127) in float32; NaN gives -128",
             inputs=(Operand("x"),), outputs=(Operand("out", "int8"),),
             args=(Arg("scale", "float32"), Arg("zero_point")), kernel="quantize"),
    Operator("quantized_decomposed::dequantize_per_tensor.out", "dequantize_per_tensor",
             "float32(x - zero_point) * scale", inputs=(Operand("x"),),
             outputs=(Operand("out", "float32"),),
             args=(Arg("scale", "float32"), Arg("zero_point")), dtypes=("int8",),
             kernel="dequantize"),
    Operator("quantized_decomposed::requantize.out", "requantize",
             "saturate(requantize(x - zp_in, m, n) + zp_out)",
             inputs=(Operand("x", npu_slot="input"),), outputs=(Operand("out", npu_slot="output"),),
             args=(Arg("zp_in"), Arg("zp_out"), Arg("m"), Arg("n")), dtypes=("int8",),
             kernel="requantize", npu=NpuLayer(20, "Requantize", ("requantize",), "requantize")))

# ExecuTorch's quantize (its portable kernel, the .pte operator
# quantized_decomposed::quantize_per_tensor.out): the product with the float32 reciprocal of
# the scale, which rounds to another integer than the division above for some inputs, and the
# program's quant_min/quant_max.
(QUANTIZE_RECIPROCAL,) = register(
    Operator("quantized_decomposed::quantize_per_tensor_reciprocal.out",
             "quantize_per_tensor_reciprocal",
             "clamp(zero_point + rint(x * (1 / scale)), quant_min, quant_max) in float32; NaN "
             "gives quant_min", inputs=(Operand("x"),), outputs=(Operand("out", "int8"),),
             args=(Arg("scale", "float32"), Arg("zero_point"), Arg("quant_min"),
                   Arg("quant_max")), kernel="quantize"))

# Per-channel dequantisation (PT2E's per-channel weights, ExecuTorch's
# dequantize_per_channel): c is the element's index along `axis`.
(DEQUANTIZE_PER_CHANNEL,) = register(
    Operator("quantized_decomposed::dequantize_per_channel.out", "dequantize_per_channel",
             "float32(x - zero_points[c]) * scales[c], c the index along axis",
             inputs=(Operand("x"), Operand("scales", "float32", "one per channel"),
                     Operand("zero_points", "int32", "one per channel, in [-128, 127]")),
             outputs=(Operand("out", "float32"),), args=(Arg("axis"),), dtypes=("int8",),
             kernel="dequantize"))
