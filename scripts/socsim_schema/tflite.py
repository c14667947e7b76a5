"""Operators with TensorFlow Lite's own integer rules, where no argument of a runtime
operator can select them (firmware/int8/tflite_rounding.h; docs/compiler.md, "TensorFlow Lite
models").

tflite_add is TFLite's int8 ADD: each input, less its zero point, shifted left by 20 and
scaled by its multiplier (m, e) with TFLite's double rounding, the two summed and scaled by
the output's multiplier with the same rounding, plus the output zero point, clamped.
"""

from socsim_schema.core import Arg, Operand, Operator, register

_BOUNDS = (Arg("act_min", doc="lower bound of the output (a fused activation)"),
           Arg("act_max", doc="upper bound of the output"))

TFLITE_ADD, = register(
    Operator("tflite::add.out", "tflite_add",
             "TFLite's int8 add: mbqm(mbqm((a - zp_a) 2^20, m_a, e_a) + "
             "mbqm((b - zp_b) 2^20, m_b, e_b), m_out, e_out) + zp_out, clamped, broadcasting",
             inputs=(Operand("a"), Operand("b")),
             args=(Arg("zp_a"), Arg("m_a", doc="a's Q31 multiplier"),
                   Arg("e_a", doc="a's exponent, -31..30"), Arg("zp_b"),
                   Arg("m_b", doc="b's Q31 multiplier"), Arg("e_b", doc="b's exponent"),
                   Arg("m_out", doc="the sum's Q31 multiplier"),
                   Arg("e_out", doc="the sum's exponent"), Arg("zp_out")) + _BOUNDS,
             dtypes=("int8",), kernel="tflite_add"))

# tflite_sub is TFLite's int8 SUB: tflite_add's rule with the second scaled input subtracted.
# tflite_mul is TFLite's int8 MUL: (a - zp_a)(b - zp_b) scaled by (m, e) with the double
# rounding, plus zp_out, clamped. tflite_lookup is any TFLite int8 operator of one input that
# maps each value on its own (RELU, RELU6, LEAKY_RELU, an int8 QUANTIZE): the compiler
# evaluates TFLite's integer rule at all 256 input values (socsim_aot/tflite_eval.py) and the
# kernel looks each value up (firmware/int8/lookup.h).
TFLITE_SUB, TFLITE_MUL, TFLITE_LOOKUP = register(
    Operator("tflite::sub.out", "tflite_sub",
             "TFLite's int8 sub: mbqm(mbqm((a - zp_a) 2^20, m_a, e_a) - "
             "mbqm((b - zp_b) 2^20, m_b, e_b), m_out, e_out) + zp_out, clamped, broadcasting",
             inputs=(Operand("a"), Operand("b")),
             args=(Arg("zp_a"), Arg("m_a", doc="a's Q31 multiplier"),
                   Arg("e_a", doc="a's exponent, -31..30"), Arg("zp_b"),
                   Arg("m_b", doc="b's Q31 multiplier"), Arg("e_b", doc="b's exponent"),
                   Arg("m_out", doc="the difference's Q31 multiplier"),
                   Arg("e_out", doc="the difference's exponent"), Arg("zp_out")) + _BOUNDS,
             dtypes=("int8",), kernel="tflite_elementwise"),
    Operator("tflite::mul.out", "tflite_mul",
             "TFLite's int8 mul: mbqm((a - zp_a)(b - zp_b), m, e) + zp_out, clamped, "
             "broadcasting",
             inputs=(Operand("a"), Operand("b")),
             args=(Arg("zp_a"), Arg("zp_b"), Arg("m", doc="the product's Q31 multiplier"),
                   Arg("e", doc="the product's exponent, -31..30"), Arg("zp_out")) + _BOUNDS,
             dtypes=("int8",), kernel="tflite_elementwise"),
    Operator("tflite::lookup.out", "tflite_lookup",
             "table[x + 128]: a TFLite int8 operator of one input, its integer rule evaluated "
             "by the compiler at every input value",
             inputs=(Operand("x"),
                     Operand("table", "int8", "[256]: the operator's int8 output of every int8 "
                             "input")),
             dtypes=("int8",), kernel="tflite_elementwise"))

# tflite_mean is TFLite's int8 MEAN: the sum of (x - zp_in) over the reduced axes scaled once by
# (m, e), QuantizeMultiplier(s_in / (count s_out)), with the double rounding, plus zp_out.
from socsim_schema.reduction import _REDUCE  # noqa: E402

TFLITE_MEAN, = register(
    Operator("tflite::mean.out", "tflite_mean",
             "TFLite's int8 mean: mbqm(sum (x - zp_in), m, e) + zp_out, saturated",
             inputs=(Operand("x"),),
             args=(Arg("zp_in"), Arg("zp_out"), Arg("m", doc="Q31 multiplier of s_in / "
                                                            "(count s_out)"),
                   Arg("e", doc="its exponent, -31..30"), _REDUCE),
             dtypes=("int8",), kernel="reduce"))

# tflite_resize_bilinear is TFLite's int8 RESIZE_BILINEAR on NHWC: each output row and column
# has a source position in 1/1024ths and its two neighbours (the compiler's tables, TFLite's
# rule), the four neighbours weighted by 10-bit fractions, the sum divided by 2^20 rounding
# halves away from zero; the output keeps the input's quantisation.
TFLITE_RESIZE_BILINEAR, = register(
    Operator("tflite::resize_bilinear.out", "tflite_resize_bilinear",
             "TFLite's int8 bilinear resize (NHWC): sum of the four neighbours times 10-bit "
             "weights, / 2^20 rounding halves away from zero",
             inputs=(Operand("x"),
                     Operand("rows", "int32", "[OH, 3]: source position (1/1024ths), first "
                             "and second source row of each output row"),
                     Operand("columns", "int32", "[OW, 3]: the same for each output column")),
             dtypes=("int8",), kernel="tflite_resize"))

# tflite_quantize is TFLite's QUANTIZE from float32 to int8: x / scale in float32, rounded half
# away from zero (TfLiteRound), plus the zero point, clamped; NaN gives -128.
TFLITE_QUANTIZE, = register(
    Operator("tflite::quantize.out", "tflite_quantize",
             "clamp(round_half_away(x / scale) + zero_point, -128, 127), the division in "
             "float32; NaN gives -128", inputs=(Operand("x"),), outputs=(Operand("out", "int8"),),
             args=(Arg("scale", "float32"), Arg("zero_point")), kernel="tflite_elementwise"))

# tflite_lookup_bytes is a TFLite operator of one input between int8 and uint8 (QUANTIZE from a
# uint8 model input to int8, or from int8 to a uint8 model output: TFLite's requantisation with
# the double rounding), as the compiler's table of its output bytes: out = table[x - min(T)],
# the output int8 or uint8 (the table's bytes read as the output's type).
TFLITE_LOOKUP_BYTES, = register(
    Operator("tflite::lookup_bytes.out", "tflite_lookup_bytes",
             "table[x - min(T)] as the output's type (int8 or uint8): a TFLite operator of one "
             "input between int8 and uint8, its integer rule evaluated by the compiler at every "
             "input value",
             inputs=(Operand("x"),
                     Operand("table", "uint8", "[256]: the output's byte for every input value, "
                             "from the smallest")),
             outputs=(Operand("out", "any", "int8 or uint8"),),
             dtypes=("int8", "uint8"), kernel="tflite_elementwise"))
