"""The operator schema: every operator of the socsim runtime, declared once.

A package of its own that needs only the Python standard library: the C++ build runs its
generator at configure and build time, and the compiler (socsim_aot) imports it and attaches
its own hooks (socsim_aot/schema/). Each family module registers its operators
(core.Operator: name, operands, named and typed arguments, element types with a CPU kernel,
the NPU layer, the ONNX operators it lowers from); layouts.py declares the binary records
shared by firmware, simulator and tools. `python3 -m socsim_schema.generate` writes the C++
headers the firmware kernels, the runtime and the NPU model include (in the build tree).
"""

from socsim_schema import core, layouts  # noqa: F401
from socsim_schema.core import (Arg, Args, NpuLayer, Operand, Operator, by_npu_opcode,  # noqa
                                find, get, npu_classes, onnx_operators, operator_table,
                                operators, pack_args, simple_onnx_operators, unpack_args)
# Family modules, in the order their operators are listed (registration order).
from socsim_schema import (conv, elementwise, activations, pooling, softmax,  # noqa: F401
                           data_movement, quantization, reduction, matmul, normalization,
                           resize, conv_transpose, masking, indexing)
from socsim_schema import tflite  # noqa: F401,E402
from socsim_schema import selection  # noqa: F401,E402
