// The NPU model on the kernel cases (scripts/socsim_aot/kernel_cases.py): every case an NPU
// layer can run comes as NAME.npu, the descriptor the compiler writes with its operands; the
// layer must validate and compute NAME.out, the numpy reference's result, bit for bit. Every
// NPU opcode of the operator schema must have a case.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "models/npu/npu_functional.h"
#include "tests/support/kernel_case_manifest.h"

namespace socsim {
namespace {

using Case = test::KernelCase;
using test::read_file;

std::vector<Case> npu_cases() {
  std::vector<Case> cases;
  for (const Case& c : test::read_kernel_cases()) {
    if (c.npu) cases.push_back(c);
  }
  return cases;
}

uint32_t read_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

class NpuKernelCaseTest : public ::testing::TestWithParam<Case> {};

TEST_P(NpuKernelCaseTest, MatchesNumpyReference) {
  const std::vector<uint8_t> file = read_file(GetParam().path(".npu"));
  const std::vector<uint8_t> expected = read_file(GetParam().path(".out"));
  ASSERT_GE(file.size(), npu::kDescriptorSize);
  npu::LayerDescriptor d;
  std::memcpy(&d, file.data(), sizeof d);
  ASSERT_EQ(validate_layer(d), npu::kNpuOk);

  // Operands per slot, in 32-bit words so that int32 operands are aligned.
  std::vector<int32_t> words[npu::kAddrCount];
  size_t at = npu::kDescriptorSize;
  const NpuOperandSizes sizes = operand_sizes(d);
  for (uint32_t slot = 0; slot < npu::kAddrCount; ++slot) {
    ASSERT_LE(at + 4, file.size());
    const uint32_t size = read_u32(file.data() + at);
    at += 4;
    ASSERT_EQ(size, sizes.bytes[slot]) << "slot " << slot;
    words[slot].resize((size + 3) / 4);
    if (slot == npu::kAddrOutput) continue;
    ASSERT_LE(at + size, file.size());
    if (size > 0) std::memcpy(words[slot].data(), file.data() + at, size);  // data() may be null
    at += size;
  }
  ASSERT_EQ(at, file.size());
  NpuOperands ops;
  ops.input = reinterpret_cast<const int8_t*>(words[npu::kAddrInput].data());
  ops.weights = reinterpret_cast<const int8_t*>(words[npu::kAddrWeights].data());
  ops.bias = words[npu::kAddrBias].data();
  ops.requant = words[npu::kAddrRequant].data();
  ops.output = reinterpret_cast<int8_t*>(words[npu::kAddrOutput].data());
  ASSERT_EQ(execute_layer(d, ops), npu::kNpuOk);
  ASSERT_EQ(expected.size(), sizes.bytes[npu::kAddrOutput]);
  const auto* got = reinterpret_cast<const uint8_t*>(ops.output);
  for (size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(got[i], expected[i]) << "byte " << i;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Numpy, NpuKernelCaseTest, ::testing::ValuesIn(npu_cases()), case_name);

TEST(NpuKernelCases, CoverEveryNpuLayer) {
  std::set<std::string> covered;
  for (const Case& c : npu_cases()) covered.insert(c.op);
#define SOCSIM_EXPECT_COVERED(opcode, op, report, source) \
  EXPECT_EQ(covered.count(ops::op::kName), 1u) << ops::op::kName;
  SOCSIM_NPU_LAYERS(SOCSIM_EXPECT_COVERED)
#undef SOCSIM_EXPECT_COVERED
}

}  // namespace
}  // namespace socsim
