"""Softmax with a constant mask: the attention of a causal decoder (or of padded keys), whose
scores are added -inf (or a large negative number) where a query must not look, or chosen by
Where. A front-end pass (socsim_aot/passes/mask_softmax.py) turns Add(scores, mask) or
Where(keep, scores, -big) before Softmax into this operator, so the int8 program never has
to quantise -inf: the masked positions take no part in the maximum or the sum and come out
exactly 0 (a line masked whole comes out all 0, as ATen's _masked_softmax).

The mask is a uint8 tensor of the input's shape, nonzero where a position is excluded.
int8 uses the softmax table of socsim_schema/softmax.py over the positions kept; masked
outputs are -128 (0 at the output scale 1/256, zero point -128).
"""

from socsim_schema.core import Arg, Operand, Operator, register

_DIM = (Arg("dim", doc="the axis, in [0, rank)"),)
_MASK = Operand("mask", "uint8", "the input's shape: nonzero where excluded")

MASKED_SOFTMAX, QUANTIZED_MASKED_SOFTMAX = register(
    Operator("aten::_masked_softmax.out", "masked_softmax",
             "softmax over the axis dim of the positions not masked; masked positions 0",
             inputs=(Operand("x"), _MASK), args=_DIM, kernel="masked_softmax",
             quantized="quantized_decomposed::masked_softmax.out"),
    Operator("quantized_decomposed::masked_softmax.out", "quantized_masked_softmax",
             "table[max - x] / sum over the kept positions of dim, masked -128; output scale "
             "1/256, zero point -128",
             inputs=(Operand("x"), _MASK,
                     Operand("table", "int32", "[256] = round(2^16 exp(-s d))")),
             args=_DIM, dtypes=("int8",), kernel="masked_softmax"))
