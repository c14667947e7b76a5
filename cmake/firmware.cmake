# The RISC-V firmware, built as a separate CMake project with its own toolchain file.
