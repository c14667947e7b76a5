"""Layer normalisation over the trailing axes (ONNX LayerNormalization, opset 17; the
decomposed ReduceMean/Sub/Pow/ReduceMean/Add/Sqrt/Div pattern once a graph pass fuses it).

The argument `axis` is the first normalised axis: each of the outer = prod(shape[:axis])
rows of N = prod(shape[axis:]) elements is normalised on its own, then scaled by weight and
shifted by bias (N elements each).

int8 (integers only; docs/runtime.md): with d = x - zp_in, S = sum d and Q = sum d^2 over a
row, the normalised value of element i is (N d_i - S) / sqrt(V) with V = N Q - S^2 + eps_q,
eps_q = round(N^2 eps / s_in^2) (the variance and eps in units of s_in^2 / N^2). The compiler
folds the weight and the output scale into w_i = round(2^16 gamma_i / s_out) and the bias into
b_i = round(beta_i / s_out); then y_i = clamp(div_round((N d_i - S) w_i, r 2^8) + b_i +
zp_out) with r = isqrt(V 2^16) (floor of the square root), and y_i = clamp(b_i + zp_out)
where V = 0. N is at most 4096, so every intermediate fits int64.
"""

from socsim_schema.core import Arg, Operand, Operator, register

_AXIS = Arg("axis", doc="the first normalised axis")

LAYER_NORM, QUANTIZED_LAYER_NORM = register(
    Operator("aten::native_layer_norm.out", "native_layer_norm",
             "(x - mean) / sqrt(var + eps) weight + bias over the axes from `axis` on",
             inputs=(Operand("x"), Operand("weight", doc="[N]"), Operand("bias", doc="[N]")),
             args=(_AXIS, Arg("eps", "float32")), kernel="layer_norm",
             onnx=("LayerNormalization", "InstanceNormalization", "GroupNormalization"),
             quantized="quantized_decomposed::layer_norm.out"),
    Operator("quantized_decomposed::layer_norm.out", "quantized_layer_norm",
             "div_round((N d - S) w, isqrt((N Q - S^2 + eps_q) 2^16) 2^8) + b + zp_out",
             inputs=(Operand("x"), Operand("weight", "int32", "[N] round(2^16 gamma / s_out)"),
                     Operand("bias", "int32", "[N] round(beta / s_out)")),
             args=(_AXIS, Arg("zp_in"), Arg("zp_out"),
                   Arg("eps_q", doc="round(N^2 eps / s_in^2)")), dtypes=("int8",),
             kernel="layer_norm"))

# Inference batch normalisation as ExecuTorch's exporter writes it
# (_native_batch_norm_legit_no_training): per channel c of axis 1,
# invstd = float32(1 / sqrt(double(var[c]) + double(eps))) (the reciprocal and the root in
# double precision, as ExecuTorch's portable kernel computes them), then
# ((x - mean[c]) * invstd) * weight[c] + bias[c] in float32, in that order.
(BATCH_NORM,) = register(
    Operator("aten::_native_batch_norm_legit_no_training.out", "batch_norm",
             "((x - mean) invstd) weight + bias per channel (axis 1), invstd = 1 / sqrt(var + "
             "eps) in double precision",
             inputs=(Operand("x"), Operand("weight", doc="[C]"), Operand("bias", doc="[C]"),
                     Operand("mean", doc="[C] running mean"),
                     Operand("var", doc="[C] running variance")),
             args=(Arg("eps", "float32"),), kernel="batch_norm"))

# ExecuTorch's layer norm (its portable kernel, the .pte operator native_layer_norm): per
# row, mean = sum / N and var = sum_sq / N - mean^2 (both sums from 0 in element order,
# float32), std = sqrt(var + eps), y = (x - mean) / std * weight + bias; the statistics
# kernel gives the row's mean (stat 0) or float32(1 / double(std)) (stat 1), the operator's
# other two outputs.
LAYER_NORM_SUMSQ, LAYER_NORM_STAT = register(
    Operator("aten::native_layer_norm_sumsq.out", "layer_norm_sumsq",
             "(x - mean) / sqrt(E[x^2] - mean^2 + eps) weight + bias over the axes from `axis` "
             "on, in float32",
             inputs=(Operand("x"), Operand("weight", doc="[N]"), Operand("bias", doc="[N]")),
             args=(_AXIS, Arg("eps", "float32")), kernel="layer_norm"),
    Operator("aten::native_layer_norm_stat.out", "layer_norm_stat",
             "each row's mean (stat 0) or 1 / sqrt(E[x^2] - mean^2 + eps) (stat 1), as "
             "native_layer_norm_sumsq computes them",
             inputs=(Operand("x"),), outputs=(Operand("out", doc="one element per row"),),
             args=(_AXIS, Arg("eps", "float32"), Arg("stat", doc="0 mean, 1 rstd")),
             kernel="layer_norm"))
