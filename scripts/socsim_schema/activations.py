"""Elementwise activations and nonlinearities: ReLU, Clip, and the table lookups (Sigmoid,
Tanh, HardSigmoid, HardSwish, SiLU, GELU, Erf, Exp, Sqrt, Pow with a constant exponent).

Quantised, ReLU and Clip keep the input's scale and zero point, so their int8 forms only
compare values: ReLU against the zero point, Clip against bounds quantised by the compiler.
Every other int8 nonlinearity looks each value up in a 256-entry table the compiler computes
from the input's quantisation (as TFLite computes int8 logistic and NPUs with a lookup unit
do), so no floating point runs on the core or the NPU. Sigmoid's output has TFLite's fixed
quantisation, scale 1/256 and zero point -128; the others' output quantisation covers the
range of the table's values (range_quantization).
"""

from socsim_schema.core import Arg, NpuLayer, Operand, Operator, camel, register

_X = (Operand("x"),)

RELU, QUANTIZED_RELU, CLAMP, QUANTIZED_CLAMP = register(
    Operator("aten::relu.out", "relu", "max(x, 0)", inputs=_X, dtypes=("float32", "int8"),
             kernel="relu", onnx=("Relu",), quantized="quantized_decomposed::relu.out"),
    Operator("quantized_decomposed::relu.out", "quantized_relu", "max(x, zero_point)", inputs=_X,
             args=(Arg("zero_point"),), dtypes=("int8",), kernel="relu"),
    Operator("aten::clamp.out", "clamp", "min(max(x, lo), hi)", inputs=_X,
             args=(Arg("lo", "float32"), Arg("hi", "float32")), kernel="clip", onnx=("Clip",),
             quantized="quantized_decomposed::clamp.out"),
    Operator("quantized_decomposed::clamp.out", "quantized_clamp",
             "min(max(x, lo), hi), bounds quantised", inputs=_X, args=(Arg("lo"), Arg("hi")),
             dtypes=("int8",), kernel="clip"))


# ---- table lookups --------------------------------------------------------------------------
#
# Every int8 nonlinearity is one lookup: the compiler evaluates the function at each of the 256
# values the quantised input can take and stores the quantised results (docs/runtime.md,
# "Integer arithmetic"). The float32 operator is aten::<name>.out, its int8 twin
# quantized_decomposed::<name>.out with operands x and table; an NPU runs the twin on its
# lookup unit, on its own or fused after the layer that produces x (npu_partition.py).

def lookup_pair(name, doc, opcode, onnx=(), args=(), fixed_output=False, report=None,
                overload="out"):
    """Registers aten::<name>.<overload> (float32) and its int8 table-lookup twin
    quantized_decomposed::<name>.out, whose NPU layer is `opcode` (preset class `name`, entry
    in models/npu/layers/lookup.cpp, OpType `report`). The twin's output has sigmoid's fixed
    quantisation (`fixed_output`) or one covering the table's range."""
    float_op = Operator(
        f"aten::{name}.{overload}", name, doc, inputs=(Operand("x"),), args=args, kernel=name,
        onnx=onnx, quantized=f"quantized_decomposed::{name}.out")
    out_quant = "output scale 1/256, zero point -128" if fixed_output \
        else "output quantisation from the table's range"
    quantized_op = Operator(
        f"quantized_decomposed::{name}.out", f"quantized_{name}", f"table[x + 128], {out_quant}",
        inputs=(Operand("x", npu_slot="input"),
                Operand("table", "int8", f"[256]: {name} of every int8 input, quantised",
                        npu_slot="weights")),
        outputs=(Operand("out", npu_slot="output"),), dtypes=("int8",), kernel=name,
        npu=NpuLayer(opcode, report or camel(name), (name,), "lookup"))
    return register(float_op, quantized_op)


SIGMOID, QUANTIZED_SIGMOID = lookup_pair("sigmoid", "1 / (1 + exp(-x))", 8, ("Sigmoid",),
                                         fixed_output=True)
TANH, QUANTIZED_TANH = lookup_pair("tanh", "tanh(x)", 9, ("Tanh",))
HARDSIGMOID, QUANTIZED_HARDSIGMOID = lookup_pair(
    "hardsigmoid", "clamp(alpha x + beta, 0, 1)", 10, ("HardSigmoid",),
    args=(Arg("alpha", "float32"), Arg("beta", "float32")), report="HardSigmoid")
HARDSWISH, QUANTIZED_HARDSWISH = lookup_pair("hardswish", "x relu6(x + 3) / 6", 11,
                                             ("HardSwish",), report="HardSwish")
SILU, QUANTIZED_SILU = lookup_pair("silu", "x sigmoid(x)", 12, report="SiLU")
GELU, QUANTIZED_GELU = lookup_pair("gelu", "x (1 + erf(x / sqrt 2)) / 2", 13, report="GELU")
ERF, QUANTIZED_ERF = lookup_pair("erf", "erf(x)", 14, ("Erf",))
EXP, QUANTIZED_EXP = lookup_pair("exp", "exp(x)", 15, ("Exp",))
SQRT, QUANTIZED_SQRT = lookup_pair("sqrt", "sqrt(x), NaN below 0", 16, ("Sqrt",))
POW, QUANTIZED_POW = lookup_pair("pow", "x ^ exponent, a constant", 17, ("Pow",),
                                 args=(Arg("exponent", "float32"),),
                                 overload="Tensor_Scalar_out")
