// Builds program files in memory for runtime tests (a small C++ twin of the Python writer,
// so tests can make exact, and exactly broken, files without the compiler).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace socsim::runtime::test {

struct TensorSpec {
  uint8_t dtype = 1;
  std::vector<uint32_t> dims;
  bool constant = false;
  std::vector<uint8_t> data;  ///< Constant bytes.
  uint32_t buffer = 0;
  uint32_t offset = 0;  ///< Planned offset.
  uint8_t quant = 0;
  float scale = 0.0f;
  int32_t zero_point = 0;
  uint32_t axis = 0;
  std::vector<float> scales;  ///< Per-channel.
};

struct InstructionSpec {
  std::string name;  ///< Empty for a delegate call.
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
  std::vector<int32_t> args;
  uint32_t delegate = 0;
};

struct DelegateSpec {
  std::string backend;
  std::vector<uint8_t> blob;
};

struct ProgramSpec {
  std::vector<TensorSpec> tensors;
  std::vector<InstructionSpec> instructions;
  std::vector<uint32_t> buffers;
  std::vector<DelegateSpec> delegates;
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};

std::vector<uint8_t> build_program(const ProgramSpec& spec);

/// A program computing out = a + b (int8, wrapping) on n elements, optionally through the
/// cpu-packed delegate.
ProgramSpec add8_program(uint32_t n, bool delegated);

/// Bytes with 16-byte aligned storage (Program::load requires it).
class AlignedBytes {
 public:
  explicit AlignedBytes(const std::vector<uint8_t>& bytes);
  uint8_t* data() { return reinterpret_cast<uint8_t*>(storage_.data()); }
  size_t size() const { return size_; }

 private:
  struct alignas(16) Block {
    uint8_t b[16];
  };
  std::vector<Block> storage_;
  size_t size_;
};

}  // namespace socsim::runtime::test
