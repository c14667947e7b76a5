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
