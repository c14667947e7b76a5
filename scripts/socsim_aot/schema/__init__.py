"""The operator schema: every operator of the socsim runtime, declared once.

Each family module registers its operators (core.Operator: name, operands, named and typed
arguments, element types with a CPU kernel, the NPU layer, the ONNX operators it lowers
from, and the hooks the compiler and the numpy reference executor call). layouts.py declares
the binary records shared by firmware, simulator and tools. `python3 -m
socsim_aot.schema.generate` writes the C++ headers the firmware kernels, the runtime and the
NPU model include (in the build tree); the Python tools import this package directly.
"""

from socsim_aot.schema import core, layouts
from socsim_aot.schema.core import (Arg, Args, NpuLayer, Operand, Operator, by_npu_opcode,
                                    find, get, npu_classes, onnx_operators, operator_table,
                                    operators, pack_args, simple_onnx_operators, unpack_args)
# Family modules, in the order their operators are listed (registration order).
from socsim_aot.schema import (conv, elementwise, activations, pooling, softmax,  # noqa: F401
                               data_movement, quantization, reduction)
