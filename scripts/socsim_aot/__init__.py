"""Ahead-of-time tools for the socsim inference runtime.

schema          the operator schema and binary layouts (docs/abi.md); generates the C++ headers
ir              the compiler's graph IR and the services operator entries use
program_format  the program file (docs/program-format.md): writer and verifying reader
fixed_point     the int8 integer arithmetic shared with the firmware kernels
reference       numpy reference executor of program files
compiler        ONNX -> program file (float32 or int8), memory planning, delegation
zoo             exports the model zoo with torch and compiles it
torch_models    torch modules shared by the zoo and the ExecuTorch fixture exporter
op_models       one-node ONNX models of the schema's simple operators, for end-to-end tests
kernel_cases    single-operator programs with numpy expected outputs for kernel tests
sources         a digest of this package's sources, the key of compiled-model caches
"""
