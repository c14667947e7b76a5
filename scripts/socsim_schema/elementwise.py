"""Binary elementwise operators with numpy broadcasting: add, sub, mul, div.

float32 and plain int8 (wrapping modulo 256, as torch computes on int8 tensors) share the
ATen operator (div: float32 only, torch's true division); quantised int8 is a separate
operator whose arguments carry the fixed-point rescaling (docs/runtime.md, "Integer
arithmetic").
"""

from socsim_schema.core import Arg, NpuLayer, Operand, Operator, register

_INPUTS = (Operand("a", npu_slot="input"), Operand("b", npu_slot="weights"))

_OUTPUT = (Operand("out", npu_slot="output"),)

_BOUNDS = (Arg("act_min", doc="lower bound of the output (a fused ReLU: zp_out)"),
           Arg("act_max", doc="upper bound of the output"))

_ADD_SUB_ARGS = (Arg("zp_a"), Arg("m_a", doc="a's multiplier at shift n"), Arg("zp_b"),
                 Arg("m_b", doc="b's multiplier at shift n"), Arg("n", doc="common shift"),
                 Arg("zp_out")) + _BOUNDS

ADD, SUB, MUL, DIV = register(
    Operator("aten::add.out", "add", "a + b, broadcasting; int8 wraps modulo 256", inputs=_INPUTS,
             outputs=_OUTPUT, dtypes=("float32", "int8"), kernel="add", onnx=("Add",),
             quantized="quantized_decomposed::add.out"),
    Operator("aten::sub.out", "sub", "a - b, broadcasting; int8 wraps modulo 256", inputs=_INPUTS,
             outputs=_OUTPUT, dtypes=("float32", "int8"), kernel="sub", onnx=("Sub",),
             quantized="quantized_decomposed::sub.out"),
    Operator("aten::mul.out", "mul", "a * b, broadcasting; int8 wraps modulo 256", inputs=_INPUTS,
             outputs=_OUTPUT, dtypes=("float32", "int8"), kernel="mul", onnx=("Mul",),
             quantized="quantized_decomposed::mul.out"),
    Operator("aten::div.out", "div", "a / b, broadcasting (true division)", inputs=_INPUTS,
             outputs=_OUTPUT, kernel="div", onnx=("Div",),
             quantized="quantized_decomposed::div.out"))

QUANTIZED_ADD, QUANTIZED_SUB, QUANTIZED_MUL, QUANTIZED_DIV = register(
    Operator("quantized_decomposed::add.out", "quantized_add",
             "round_shift((a - zp_a) m_a + (b - zp_b) m_b, n) + zp_out, clamped", inputs=_INPUTS,
             outputs=_OUTPUT, args=_ADD_SUB_ARGS, dtypes=("int8",), kernel="add",
             npu=NpuLayer(3, "Add", ("add",), "binary")),
    Operator("quantized_decomposed::sub.out", "quantized_sub",
             "round_shift((a - zp_a) m_a - (b - zp_b) m_b, n) + zp_out, clamped", inputs=_INPUTS,
             outputs=_OUTPUT, args=_ADD_SUB_ARGS, dtypes=("int8",), kernel="sub"),
    Operator("quantized_decomposed::mul.out", "quantized_mul",
             "requantize((a - zp_a)(b - zp_b), m, n) + zp_out, clamped", inputs=_INPUTS,
             outputs=_OUTPUT,
             args=(Arg("zp_a"), Arg("zp_b"), Arg("m"), Arg("n"), Arg("zp_out")) + _BOUNDS,
             dtypes=("int8",), kernel="mul", npu=NpuLayer(4, "Mul", ("mul",), "binary")),
    Operator("quantized_decomposed::div.out", "quantized_div",
             "div_round((a - zp_a) m, (b - zp_b) 2^n) + zp_out, clamped; b = zp_b saturates",
             inputs=_INPUTS, outputs=_OUTPUT,
             args=(Arg("zp_a"), Arg("zp_b"), Arg("m"), Arg("n", doc="shift, at most 53"),
                   Arg("zp_out")) + _BOUNDS, dtypes=("int8",), kernel="div"))
