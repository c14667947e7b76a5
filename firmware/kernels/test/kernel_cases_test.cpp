// Runs every single-operator case written by scripts/socsim_aot/kernel_cases.py through the
// runtime and compares the kernel's output with the numpy reference: int8 bit for bit,
// float32 within the manifest's relative tolerance. Each case is an ExecuTorch program
// (NAME.pte: the kernel as a socsim:: operator, docs/program-format.md) and, while the runtime
// reads socsim's legacy format, the same program in that format (NAME.prog); both run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "firmware/abi/generated/operators.h"
#include "firmware/runtime/method.h"
#include "firmware/runtime/program_formats.h"
#include "firmware/runtime/program.h"
#include "firmware/runtime/pte_method.h"
#include "firmware/runtime/pte_program.h"
#include "firmware/runtime/test/program_builder.h"
#include "tests/support/kernel_case_manifest.h"

namespace socsim::runtime {
namespace {

using Case = ::socsim::test::KernelCase;
using ::socsim::test::read_file;
using test::AlignedBytes;

std::vector<Case> read_manifest() {
  return ::socsim::test::read_kernel_cases();
}

// A case's file of each format.
template <typename ProgramT>
const char* suffix();
template <>
const char* suffix<PteProgram>() {
  return ".pte";
}
template <>
const char* suffix<Program>() {
  return ".prog";
}

// Planned buffers of a program, each 16-byte aligned, sized as the program says.
class PlannedMemory {
 public:
  template <typename ProgramT>
  bool place(const ProgramT& program, uint32_t limit) {
    const auto& meta = planned_memory_of(program);
    const uint32_t count = meta.num_memory_planned_buffers();
    if (count > kMax) return false;
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t size = meta.memory_planned_buffer_size(i);
      if (size > limit) return false;
      storage_[i].assign(size / 8 + 2, 0);
      auto* base = reinterpret_cast<uint8_t*>(storage_[i].data());
      if (reinterpret_cast<uintptr_t>(base) % 16 != 0) base += 8;
      spans_[i] = Span{base, size};
    }
    count_ = count;
    return true;
  }
  MemoryManager manager(MemoryAllocator* method_alloc, MemoryAllocator* temp_alloc) {
    return MemoryManager{method_alloc, spans_, count_, temp_alloc};
  }

 private:
  static constexpr uint32_t kMax = 4;
  std::vector<uint64_t> storage_[kMax];
  Span spans_[kMax];
  uint32_t count_ = 0;
};

template <typename ProgramT>
void run_case(const Case& c) {
  using Format = ProgramFormat<ProgramT>;
  AlignedBytes bytes(read_file(c.path(suffix<ProgramT>())));
  const std::vector<uint8_t> feed = read_file(c.path(".in"));
  const std::vector<uint8_t> expected = read_file(c.path(".out"));
  Result<ProgramT> program = Format::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok()) << to_string(program.error());

  std::vector<uint8_t> method_pool(1 << 16), temp_pool(1 << 12);
  MemoryAllocator method_alloc(method_pool.data(), method_pool.size());
  MemoryAllocator temp_alloc(temp_pool.data(), temp_pool.size());
  PlannedMemory planned;
  ASSERT_TRUE(planned.place(*program, 1u << 24));
  typename Format::DiagT diag;
  Result<typename Format::MethodT> method =
      Format::MethodT::load(*program, planned.manager(&method_alloc, &temp_alloc), &diag);
  ASSERT_TRUE(method.ok()) << to_string(method.error());

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
  if (c.tolerance == 0.0) {
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
      const double bound = c.tolerance * std::max(1.0, std::fabs(double{want[i]}));
      ASSERT_NEAR(got[i], want[i], bound) << "element " << i;
    }
  }
}

class KernelCaseTest : public ::testing::TestWithParam<Case> {};

TEST_P(KernelCaseTest, MatchesNumpyReference) {
  run_case<PteProgram>(GetParam());
}

TEST_P(KernelCaseTest, LegacyFormatMatchesNumpyReference) {
  run_case<Program>(GetParam());
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Numpy, KernelCaseTest, ::testing::ValuesIn(read_manifest()), case_name);

// Corrupted copies of the case programs: whatever the loader accepts must load and execute
// without touching memory outside the pools (run under AddressSanitizer to see it), with
// kernels rejecting inconsistent shapes and arguments through their error codes.
struct FuzzCounts {
  int loaded = 0, executed = 0, kernel_errors = 0;
};

template <typename ProgramT>
FuzzCounts corrupt_and_run(uint32_t seed) {
  using Format = ProgramFormat<ProgramT>;
  std::mt19937 rng(seed);
  FuzzCounts n;
  for (const Case& c : read_manifest()) {
    const std::vector<uint8_t> good = read_file(c.path(suffix<ProgramT>()));
    for (int run = 0; run < 150; ++run) {
      std::vector<uint8_t> b = good;
      for (int f = 0; f < 2; ++f) b[rng() % b.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
      AlignedBytes bytes(b);
      Result<ProgramT> program = Format::load(bytes.data(), bytes.size());
      if (!program.ok()) continue;
      // Skip loadable files whose planned memory grew beyond what a test should allocate.
      PlannedMemory planned;
      if (!planned.place(*program, 1u << 20)) continue;
      std::vector<uint8_t> method_pool(1 << 16), temp_pool(1 << 12);
      MemoryAllocator method_alloc(method_pool.data(), method_pool.size());
      MemoryAllocator temp_alloc(temp_pool.data(), temp_pool.size());
      Result<typename Format::MethodT> method =
          Format::MethodT::load(*program, planned.manager(&method_alloc, &temp_alloc));
      if (!method.ok()) continue;
      ++n.loaded;
      const Error e = method->execute();
      if (e == Error::kOk) ++n.executed;
      if (e == Error::kShapeMismatch || e == Error::kBadOperatorArgs ||
          e == Error::kDtypeMismatch) {
        ++n.kernel_errors;
      }
    }
  }
  return n;
}

TEST(KernelCasesFuzz, CorruptProgramsFailCleanly) {
  const FuzzCounts n = corrupt_and_run<PteProgram>(99);
  RecordProperty("loaded", n.loaded);
  RecordProperty("executed", n.executed);
  RecordProperty("kernel_errors", n.kernel_errors);
  EXPECT_GT(n.loaded, 1000);
  EXPECT_GT(n.executed, 500);
  EXPECT_GT(n.kernel_errors, 100);
}

TEST(KernelCasesFuzz, CorruptLegacyProgramsFailCleanly) {
  const FuzzCounts n = corrupt_and_run<Program>(99);
  EXPECT_GT(n.loaded, 1000);
  EXPECT_GT(n.executed, 500);
  EXPECT_GT(n.kernel_errors, 100);
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
