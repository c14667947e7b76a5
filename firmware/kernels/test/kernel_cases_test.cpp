// Runs every single-operator case written by scripts/socsim_aot/kernel_cases.py through the
// runtime and compares the kernel's output with the numpy reference: int8 bit for bit,
// float32 within the manifest's relative tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "firmware/abi/generated/operators.h"
#include "firmware/runtime/method.h"
#include "firmware/runtime/program.h"
#include "firmware/runtime/test/program_builder.h"
#include "tests/support/kernel_case_manifest.h"

namespace socsim::runtime {
namespace {

using Case = ::socsim::test::KernelCase;
using ::socsim::test::read_file;

std::vector<Case> read_manifest() {
  return ::socsim::test::read_kernel_cases();
}

class KernelCaseTest : public ::testing::TestWithParam<Case> {};

TEST_P(KernelCaseTest, MatchesNumpyReference) {
  test::AlignedBytes bytes(read_file(GetParam().path(".prog")));
  const std::vector<uint8_t> feed = read_file(GetParam().path(".in"));
  const std::vector<uint8_t> expected = read_file(GetParam().path(".out"));
  Result<Program> program = Program::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok()) << to_string(program.error());

  std::vector<uint8_t> method_pool(1 << 16), temp_pool(1 << 12);
  std::vector<uint8_t> planned(program->buffer_size(0) + 16);
  MemoryAllocator method_alloc(method_pool.data(), method_pool.size());
  MemoryAllocator temp_alloc(temp_pool.data(), temp_pool.size());
  Span span{planned.data() + (16 - reinterpret_cast<uintptr_t>(planned.data()) % 16) % 16,
            program->buffer_size(0)};
  MemoryManager manager{&method_alloc, &span, 1, &temp_alloc};
  MethodDiagnostics diag;
  Result<Method> method = Method::load(*program, manager, &diag);
  ASSERT_TRUE(method.ok()) << to_string(method.error()) << " " << (diag.name ? diag.name : "");

  size_t at = 0;
  for (uint32_t i = 0; i < method->inputs_size(); ++i) {
    const uint32_t n = method->input(i)->nbytes;
    ASSERT_LE(at + n, feed.size());
    ASSERT_EQ(method->set_input(i, feed.data() + at, n), Error::kOk);
    at += n;
  }
  ASSERT_EQ(at, feed.size());
  ASSERT_EQ(method->execute(&diag), Error::kOk);

  const Tensor& out = *method->output(0);
  ASSERT_EQ(out.nbytes, expected.size());
  if (GetParam().tolerance == 0.0) {
    const auto* got = out.data_as<uint8_t>();
    for (size_t i = 0; i < expected.size(); ++i) {
      ASSERT_EQ(got[i], expected[i]) << "byte " << i;
    }
  } else {
    ASSERT_EQ(out.dtype, ScalarType::kFloat32);
    std::vector<float> want(expected.size() / 4);
    std::memcpy(want.data(), expected.data(), expected.size());
    const float* got = out.data_as<float>();
    for (size_t i = 0; i < want.size(); ++i) {
      const double bound = GetParam().tolerance * std::max(1.0, std::fabs(double{want[i]}));
      ASSERT_NEAR(got[i], want[i], bound) << "element " << i;
    }
  }
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Numpy, KernelCaseTest, ::testing::ValuesIn(read_manifest()), case_name);

// Corrupted copies of the case programs: whatever the loader accepts must load and execute
// without touching memory outside the pools (run under AddressSanitizer to see it), with
// kernels rejecting inconsistent shapes and arguments through their error codes.
TEST(KernelCasesFuzz, CorruptProgramsFailCleanly) {
  std::mt19937 rng(99);
  int loaded = 0, executed = 0, kernel_errors = 0;
  for (const Case& c : read_manifest()) {
    const std::vector<uint8_t> good = read_file(c.path(".prog"));
    for (int run = 0; run < 150; ++run) {
      std::vector<uint8_t> b = good;
      for (int f = 0; f < 2; ++f) b[rng() % b.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
      test::AlignedBytes bytes(b);
      Result<Program> program = Program::load(bytes.data(), bytes.size());
      // Skip loadable files whose planned buffer grew beyond what a test should allocate.
      if (!program.ok() || program->buffer_size(0) > (1u << 20)) continue;
      std::vector<uint8_t> method_pool(1 << 16), temp_pool(1 << 12);
      std::vector<uint64_t> planned(program->buffer_size(0) / 8 + 2);
      MemoryAllocator method_alloc(method_pool.data(), method_pool.size());
      MemoryAllocator temp_alloc(temp_pool.data(), temp_pool.size());
      auto* base = reinterpret_cast<uint8_t*>(planned.data());
      if (reinterpret_cast<uintptr_t>(base) % 16 != 0) base += 8;
      Span span{base, program->buffer_size(0)};
      MemoryManager manager{&method_alloc, &span, 1, &temp_alloc};
      Result<Method> method = Method::load(*program, manager);
      if (!method.ok()) continue;
      ++loaded;
      const Error e = method->execute();
      if (e == Error::kOk) ++executed;
      if (e == Error::kShapeMismatch || e == Error::kBadOperatorArgs ||
          e == Error::kDtypeMismatch) {
        ++kernel_errors;
      }
    }
  }
  EXPECT_GT(loaded, 1000);
  EXPECT_GT(executed, 500);
  EXPECT_GT(kernel_errors, 100);
}

// Every kernel the operator schema lists (name and element type) is exercised by a case.
TEST(KernelCasesManifest, CoversEverySchemaKernel) {
  const std::vector<Case> cases = read_manifest();
  ASSERT_GE(cases.size(), 80u);
  for (const ops::KernelKey& key : ops::kSchemaKernels) {
    const bool found = std::any_of(cases.begin(), cases.end(), [&](const Case& c) {
      return c.op == key.name && c.dtype == key.dtype;
    });
    EXPECT_TRUE(found) << key.name << " dtype " << int{key.dtype};
  }
}

}  // namespace
}  // namespace socsim::runtime
