"""The operator schema as the compiler sees it: the declarations of socsim_schema/ with the
compiler's hooks attached (how an ONNX node becomes each operator, how it is quantised, its
argument values, its numpy reference semantics, whether the NPU runs it).

Each family module here attaches the hooks of its namesake's operators in socsim_schema/
(hooks.py). The compiler and its tests import this package; the C++ build only the
declarations (python3 -m socsim_schema.generate), which need no numpy.
"""

import functools

import numpy as np

from socsim_schema import core, layouts  # noqa: F401
from socsim_schema.core import (Arg, Args, NpuLayer, Operand, Operator, by_npu_opcode,  # noqa
                                find, get, npu_classes, onnx_operators, operator_table,
                                operators, pack_args, simple_onnx_operators)
# Family modules, in the order their operators are listed (registration order).
from socsim_aot.schema import (conv, elementwise, activations, pooling, softmax,  # noqa: F401
                               data_movement, quantization, reduction, matmul,
                               normalization, resize, conv_transpose,
                               masking, indexing)
from socsim_aot.schema import tflite  # noqa: F401,E402
from socsim_aot.schema import selection  # noqa: F401,E402
from socsim_aot.schema import hooks

hooks.check_complete()

# The reference executor computes float32 arguments in numpy float32.
unpack_args = functools.partial(core.unpack_args, float_type=np.float32)
