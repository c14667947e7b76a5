"""Matrix products of two activations (ONNX MatMul whose right operand is not a constant;
with a constant one it is aten::linear.out, conv.py): a [..., M, K] times b [..., K, N] gives
[..., M, N], the leading (batch) axes broadcast as numpy's matmul does. Attention's Q K^T
and its weighted sum of V are this operator.

int8: y = clamp(requantize(sum_k (a - zp_a)(b - zp_b), m, n) + zp_out, lo, hi) with
M = s_a s_b / s_out, the sum in int32 (K at most 33025, so K 255^2 < 2^31).
"""

from socsim_schema.core import Arg, NpuLayer, Operand, Operator, register

_INPUTS = (Operand("a", doc="[..., M, K]"), Operand("b", doc="[..., K, N]"))

_NPU_INPUTS = (Operand("a", doc="[..., M, K]", npu_slot="input"),
               Operand("b", doc="[..., K, N]", npu_slot="weights"))

MATMUL, QUANTIZED_MATMUL = register(
    Operator("aten::matmul.out", "matmul",
             "a [..., M, K] times b [..., K, N], batch axes broadcast", inputs=_INPUTS,
             kernel="matmul", quantized="quantized_decomposed::matmul.out"),
    Operator("quantized_decomposed::matmul.out", "quantized_matmul",
             "requantize(sum (a - zp_a)(b - zp_b), m, n) + zp_out, clamped", inputs=_NPU_INPUTS,
             outputs=(Operand("out", npu_slot="output"),),
             args=(Arg("zp_a"), Arg("zp_b"), Arg("m"), Arg("n"), Arg("zp_out"),
                   Arg("act_min"), Arg("act_max")), dtypes=("int8",), kernel="matmul",
             npu=NpuLayer(19, "MatMul", ("matmul",), "matmul")))
