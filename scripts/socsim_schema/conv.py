"""Convolution (2-D, NCHW activations, OIHW weights, groups) and fully connected layers.

Both carry a fused output clamp (act_min, act_max): a following ReLU or Clip is folded into
them by the compiler. Quantised, the weights are int8 per output channel, the bias int32 and
a requantisation table int32 [out, 2] (multiplier, shift) per output channel.
"""

from socsim_schema.core import Arg, NpuLayer, Operand, Operator, register

GEOMETRY = (Arg("stride_h"), Arg("stride_w"), Arg("pad_top"), Arg("pad_left"),
            Arg("pad_bottom"), Arg("pad_right"), Arg("dilation_h"), Arg("dilation_w"),
            Arg("groups"))

FLOAT_BOUNDS = (Arg("act_min", "float32"), Arg("act_max", "float32"))

QUANT = (Arg("zp_in"), Arg("zp_out"), Arg("act_min"), Arg("act_max"))

_FLOAT_INPUTS = (Operand("x"), Operand("weight"), Operand("bias"))

_QUANT_INPUTS = (Operand("x", "int8", npu_slot="input"),
                 Operand("weight", "int8", "int8, per output channel", npu_slot="weights"),
                 Operand("bias", "int32", npu_slot="bias"),
                 Operand("requant", "int32", "[out, 2]: multiplier, shift per channel",
                         npu_slot="requant"))

_QUANT_OUTPUT = (Operand("out", "int8", npu_slot="output"),)

# A convolution also reads uint8: the first layer of a model with an integer input
# (compile_model.py --input-type uint8), the way NPUs take camera frames.
_CONV_QUANT_INPUTS = (Operand("x", "T", "int8, or uint8 (a model input: zp_in 0..255)",
                              npu_slot="input"),) + _QUANT_INPUTS[1:]

CONVOLUTION, QUANTIZED_CONVOLUTION, LINEAR, QUANTIZED_LINEAR = register(
    Operator("aten::convolution.out", "convolution",
             "2-D convolution (groups, stride, asymmetric padding, dilation), clamped",
             inputs=_FLOAT_INPUTS, args=GEOMETRY + FLOAT_BOUNDS, kernel="conv2d", onnx=("Conv",),
             quantized="quantized_decomposed::convolution.out"),
    Operator("quantized_decomposed::convolution.out", "quantized_convolution",
             "bias + sum (x - zp_in) w, requantised per channel, + zp_out, clamped",
             inputs=_CONV_QUANT_INPUTS, outputs=_QUANT_OUTPUT, args=GEOMETRY + QUANT,
             dtypes=("int8", "uint8"), kernel="conv2d",
             npu=NpuLayer(1, "Conv", ("conv2d", "depthwise_conv2d"), "convolution")),
    Operator("aten::linear.out", "linear", "x W^T + b over the last axis, clamped",
             inputs=_FLOAT_INPUTS, args=FLOAT_BOUNDS, kernel="linear", onnx=("Gemm", "MatMul"),
             quantized="quantized_decomposed::linear.out"),
    Operator("quantized_decomposed::linear.out", "quantized_linear",
             "bias + sum (x - zp_in) w over the last axis, requantised per channel, clamped",
             inputs=_QUANT_INPUTS, outputs=_QUANT_OUTPUT, args=QUANT, dtypes=("int8",),
             kernel="linear", npu=NpuLayer(2, "FullyConnected", ("linear",), "linear")))
