"""Transposed convolution (ONNX ConvTranspose, 2-D and 1-D; groups, strides, pads,
output_padding, dilations), lowered as zero insertion followed by an ordinary convolution.

A transposed convolution with stride s scatters each input element into the output; the same
result is the convolution (stride 1, no padding of its own) of the input with s - 1 zeros
inserted between neighbours and d (k - 1) - pad zeros around it (d (k - 1) - pad_end +
output_padding at the end), with the weights flipped in space and their in/out axes swapped
per group. The compiler writes the zero insertion and the convolution, so the CPU and the NPU
run the convolution layer they already have; the convolution does s_h s_w times the
multiply-accumulates of a direct scatter (docs/compiler.md, "ConvTranspose").

Quantised, the inserted zeros are the input's zero point, so they contribute nothing to the
convolution's sums.
"""

from socsim_schema.core import Arg, Operand, Operator, register

ZERO_INSERT, = register(
    Operator("socsim::zero_insert.out", "zero_insert",
             "x with stride - 1 copies of `zero_point` between neighbours of the last two axes "
             "and pad_* copies around them",
             inputs=(Operand("x"),),
             args=(Arg("stride_h"), Arg("stride_w"), Arg("pad_top"), Arg("pad_left"),
                   Arg("pad_bottom"), Arg("pad_right"),
                   Arg("zero_point", doc="the fill: 0 for float32, the zero point for int8")),
             dtypes=("float32", "int8"), kernel="zero_insert", onnx=("ConvTranspose",)))
