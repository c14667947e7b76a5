"""The compiler's hooks (numpy reference) for the operators with TFLite's integer rules.

Its operators and their rules are declared in socsim_schema/tflite.py; the TFLite front end
(tflite_frontend.py) sets their arguments.
"""

import numpy as np

from socsim_aot import tflite_eval
from socsim_aot.schema.hooks import hooks


def _add_args(g, node):
    return dict(node.attrs["args"])


def _add(ins, a, out):
    x, y = ins
    sa = tflite_eval.mbqm_double((x.astype(np.int64) - a.zp_a) << 20, a.m_a, a.e_a)
    sb = tflite_eval.mbqm_double((y.astype(np.int64) - a.zp_b) << 20, a.m_b, a.e_b)
    r = tflite_eval.mbqm_double(sa + sb, a.m_out, a.e_out) + a.zp_out
    return np.clip(np.broadcast_to(r, out.shape), a.act_min, a.act_max).astype(np.int8)


TFLITE_ADD, = (
    hooks("tflite::add.out", arg_values=_add_args, reference=_add),)
