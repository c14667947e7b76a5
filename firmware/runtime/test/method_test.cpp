// Method: memory binding, kernel resolution, delegates, execution, high-water marks and
// profiling hooks, on programs built in the test.
#include "firmware/runtime/method.h"

#include <gtest/gtest.h>

#include <cstring>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include "firmware/abi/generated/operators.h"
#include "firmware/runtime/profiling.h"
#include "firmware/runtime/test/program_builder.h"

namespace socsim::runtime {
namespace {

using test::add8_program;
using test::AlignedBytes;
using test::build_program;

/// Pools and a manager for one method, sized generously unless told otherwise.
struct Pools {
  explicit Pools(size_t planned, size_t method = 4096, size_t temp = 1024)
      : method_pool(method),
        planned_pool(planned),
        temp_pool(temp),
        method_alloc(method_pool.data(), method_pool.size()),
        temp_alloc(temp_pool.data(), temp_pool.size()) {
    span.data = planned_pool.data();
    span.size = planned_pool.size();
    manager.method_allocator = &method_alloc;
    manager.planned_buffers = &span;
    manager.planned_buffer_count = 1;
    manager.temp_allocator = &temp_alloc;
  }
  std::vector<uint8_t> method_pool, planned_pool, temp_pool;
  MemoryAllocator method_alloc, temp_alloc;
  Span span;
  MemoryManager manager;
};

/// Runs add8 on n elements with inputs i % 128, as the seed's runner does.
std::vector<uint8_t> run_add8(uint32_t n, bool delegated) {
  AlignedBytes bytes(build_program(add8_program(n, delegated)));
  Result<Program> program = Program::load(bytes.data(), bytes.size());
  EXPECT_TRUE(program.ok());
  Pools pools(program->buffer_size(0));
  Result<Method> method = Method::load(*program, pools.manager);
  EXPECT_TRUE(method.ok()) << to_string(method.error());
  std::vector<int8_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = static_cast<int8_t>(i % 128);
  EXPECT_EQ(method->set_input(0, in.data(), n), Error::kOk);
  EXPECT_EQ(method->set_input(1, in.data(), n), Error::kOk);
  EXPECT_EQ(method->execute(), Error::kOk);
  const auto* out = method->output(0)->data_as<uint8_t>();
  return std::vector<uint8_t>(out, out + n);
}

TEST(MethodTest, Add8GivesTheSeedsResults) {
  const std::vector<uint8_t> res = run_add8(1024, false);
  for (uint32_t i = 0; i < 1024; ++i) ASSERT_EQ(res[i], 2 * (i % 128)) << i;
  EXPECT_EQ(res[1023], 254);
}

TEST(MethodTest, PackedDelegateMatchesPortableKernelForSizes1To40) {
  for (uint32_t n = 1; n <= 40; ++n) {
    EXPECT_EQ(run_add8(n, true), run_add8(n, false)) << "n = " << n;
  }
  EXPECT_EQ(run_add8(1024, true), run_add8(1024, false));
}

TEST(MethodTest, BoundInputsAreReadInPlace) {
  AlignedBytes bytes(build_program(add8_program(8, false)));
  Result<Program> program = Program::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok());
  Pools pools(program->buffer_size(0));
  Result<Method> method = Method::load(*program, pools.manager);
  ASSERT_TRUE(method.ok());
  alignas(16) int8_t a[16] = {1, 2, 3, 4, 5, 6, 7, 8};
  alignas(16) int8_t b[16] = {10, 20, 30, 40, 50, 60, 70, 80};
  EXPECT_EQ(method->bind_input(0, a, 8), Error::kOk);
  EXPECT_EQ(method->bind_input(1, b, 8), Error::kOk);
  EXPECT_EQ(method->input(0)->data, a);
  EXPECT_EQ(method->execute(), Error::kOk);
  EXPECT_EQ(method->output(0)->data_as<int8_t>()[7], 88);
  b[7] = 1;  // read in place: a change shows in the next execution
  EXPECT_EQ(method->execute(), Error::kOk);
  EXPECT_EQ(method->output(0)->data_as<int8_t>()[7], 9);
  EXPECT_EQ(method->bind_input(0, a, 7), Error::kInvalidArgument);
  EXPECT_EQ(method->bind_input(0, a + 1, 8), Error::kInvalidArgument);
  EXPECT_EQ(method->bind_input(2, a, 8), Error::kNotFound);
}

TEST(MethodTest, MissingOperatorIsNamed) {
  test::ProgramSpec spec = add8_program(4, false);
  spec.instructions[0].name = "no_such_op";
  AlignedBytes bytes(build_program(spec));
  Result<Program> program = Program::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok());
  Pools pools(program->buffer_size(0));
  MethodDiagnostics diag;
  Result<Method> method = Method::load(*program, pools.manager, &diag);
  EXPECT_EQ(method.error(), Error::kOperatorMissing);
  EXPECT_EQ(std::string(diag.name), "no_such_op");
  EXPECT_EQ(diag.instruction, 0u);
  EXPECT_EQ(diag.dtype, ScalarType::kInt8);
}

TEST(MethodTest, OperatorMissingForUnregisteredDtype) {
  test::ProgramSpec spec = add8_program(4, false);
  spec.instructions[0].name = ops::DequantizePerTensor::kName;  // registered for int8 input...
  for (auto& t : spec.tensors) t.dtype = 1;  // ...but this input is float32
  spec.buffers[0] = 3 * 16;
  AlignedBytes bytes(build_program(spec));
  Result<Program> program = Program::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok());
  Pools pools(program->buffer_size(0));
  EXPECT_EQ(Method::load(*program, pools.manager).error(), Error::kOperatorMissing);
}

TEST(MethodTest, MissingBackendIsNamed) {
  test::ProgramSpec spec = add8_program(4, true);
  spec.delegates[0].backend = "npu";
  AlignedBytes bytes(build_program(spec));
  Result<Program> program = Program::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok());
  Pools pools(program->buffer_size(0));
  MethodDiagnostics diag;
  EXPECT_EQ(Method::load(*program, pools.manager, &diag).error(), Error::kDelegateMissing);
  EXPECT_EQ(std::string(diag.name), "npu");
}

TEST(MethodTest, CorruptDelegateBlobFailsInit) {
  test::ProgramSpec spec = add8_program(4, true);
  spec.delegates[0].blob[0] = 'X';
  AlignedBytes bytes(build_program(spec));
  Result<Program> program = Program::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok());
  Pools pools(program->buffer_size(0));
  EXPECT_EQ(Method::load(*program, pools.manager).error(), Error::kDelegateInitFailed);
}

TEST(MethodTest, ShortPoolsAreReported) {
  AlignedBytes bytes(build_program(add8_program(64, false)));
  Result<Program> program = Program::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok());
  Pools small_planned(program->buffer_size(0) - 1);
  EXPECT_EQ(Method::load(*program, small_planned.manager).error(), Error::kPlannedMemoryTooSmall);
  Pools small_method(program->buffer_size(0), 64);
  EXPECT_EQ(Method::load(*program, small_method.manager).error(), Error::kMemoryAllocationFailed);
}

TEST(MethodTest, KernelShapeErrorStopsExecutionAndNamesTheInstruction) {
  test::ProgramSpec spec = add8_program(4, false);
  spec.tensors[1].dims = {3};  // 4 + 3 does not broadcast to 4
  AlignedBytes bytes(build_program(spec));
  Result<Program> program = Program::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok());
  Pools pools(program->buffer_size(0));
  Result<Method> method = Method::load(*program, pools.manager);
  ASSERT_TRUE(method.ok());
  MethodDiagnostics diag;
  EXPECT_EQ(method->execute(&diag), Error::kShapeMismatch);
  EXPECT_EQ(diag.instruction, 0u);
  EXPECT_EQ(std::string(diag.name), ops::Add::kName);
}

TEST(MethodTest, HighWaterMarksAndTempReset) {
  AlignedBytes bytes(build_program(add8_program(16, false)));
  Result<Program> program = Program::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok());
  Pools pools(program->buffer_size(0));
  Result<Method> method = Method::load(*program, pools.manager);
  ASSERT_TRUE(method.ok());
  // 3 tensors, 2 input and 1 output pointers, 1 instruction and its 3 tensor pointers.
  const size_t expected_min = 3 * sizeof(Tensor) + 3 * sizeof(Tensor*);
  EXPECT_GE(pools.method_alloc.high_water_mark(), expected_min);
  EXPECT_EQ(pools.method_alloc.high_water_mark(), pools.method_alloc.used());
  void* scratch = pools.temp_alloc.allocate(100);
  ASSERT_NE(scratch, nullptr);
  EXPECT_EQ(method->execute(), Error::kOk);
  EXPECT_EQ(pools.temp_alloc.used(), 0u);
  EXPECT_EQ(pools.temp_alloc.high_water_mark(), 100u);
}

// A backend that counts how often its handles are released.
int g_released = 0;
Error counting_init(const BackendInitContext& context, const uint8_t*, size_t, void** handle) {
  *handle = context.method_allocator->allocate(4, 4);
  return Error::kOk;
}
Error counting_execute(const BackendExecuteContext&, void*, Tensor* const*, uint32_t, uint32_t) {
  return Error::kOk;
}
const Backend kCountingBackend = {"counting", [] { return true; }, counting_init, counting_execute,
                                  [](void*) { ++g_released; }};

/// The add8 program with its delegate on the counting backend, and `extra` more delegate
/// segments of backend `extra_backend` (not called).
test::ProgramSpec counting_program(uint32_t extra = 0, const char* extra_backend = "counting") {
  static const bool registered = register_backend(&kCountingBackend) == Error::kOk;
  EXPECT_TRUE(registered);
  test::ProgramSpec spec = add8_program(4, true);
  spec.delegates[0].backend = "counting";
  for (uint32_t i = 0; i < extra; ++i) spec.delegates.push_back({extra_backend, {1, 2, 3, 4}});
  return spec;
}

TEST(MethodTest, TypesCarryOwnership) {
  static_assert(!std::is_copy_constructible_v<Method> && !std::is_copy_assignable_v<Method>);
  static_assert(std::is_move_constructible_v<Method> && std::is_move_assignable_v<Method>);
  static_assert(!std::is_copy_constructible_v<DelegateHandle>);
  static_assert(!std::is_copy_constructible_v<Result<Program>>);
  static_assert(!std::is_default_constructible_v<Result<Program>>);
}

// The Method releases each delegate handle exactly once, when the last owner goes; a
// moved-from Method owns nothing and cannot execute.
TEST(MethodTest, DestructorReleasesDelegateHandlesOnce) {
  g_released = 0;
  AlignedBytes bytes(build_program(counting_program(2)));
  Result<Program> program = Program::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok());
  Pools pools(program->buffer_size(0));
  {
    Result<Method> method = Method::load(*program, pools.manager);
    ASSERT_TRUE(method.ok()) << to_string(method.error());
    EXPECT_EQ(method->execute(), Error::kOk);
    {
      Method moved = move_from(method.get());
      EXPECT_EQ(g_released, 0);
      EXPECT_EQ(moved.execute(), Error::kOk);
      EXPECT_EQ(method->execute(), Error::kInvalidState);
    }
    EXPECT_EQ(g_released, 3);  // the three segments' handles, with `moved`
  }
  EXPECT_EQ(g_released, 3);
}

// DelegateHandles releases the handles it holds (not the room left empty) exactly once:
// when moved from, reassigned or destroyed; it reports an allocator that is out of memory.
TEST(MethodTest, DelegateHandlesReleaseOnce) {
  static_assert(!std::is_copy_constructible_v<DelegateHandles>);
  static_assert(std::is_move_constructible_v<DelegateHandles>);
  g_released = 0;
  alignas(16) uint8_t pool[256];
  MemoryAllocator alloc(pool, sizeof(pool));
  {
    DelegateHandles a;
    ASSERT_TRUE(a.allocate(alloc, 3));
    a.push(DelegateHandle(&kCountingBackend, nullptr));
    a.push(DelegateHandle(&kCountingBackend, nullptr));
    EXPECT_EQ(a.size(), 2u);
    EXPECT_EQ(a[1].backend(), &kCountingBackend);
    DelegateHandles b = move_from(a);
    EXPECT_EQ(a.size(), 0u);
    EXPECT_EQ(b.size(), 2u);
    EXPECT_EQ(g_released, 0);
    DelegateHandles c;
    ASSERT_TRUE(c.allocate(alloc, 1));
    c.push(DelegateHandle(&kCountingBackend, nullptr));
    c = move_from(b);  // releases c's one handle
    EXPECT_EQ(g_released, 1);
    EXPECT_EQ(c.size(), 2u);
  }
  EXPECT_EQ(g_released, 3);
  DelegateHandles none;
  EXPECT_FALSE(none.allocate(alloc, 1000));
  EXPECT_TRUE(none.allocate(alloc, 0));
}

// A load that fails after some delegates were initialised releases them.
TEST(MethodTest, FailedLoadReleasesInitialisedDelegates) {
  g_released = 0;
  AlignedBytes bytes(build_program(counting_program(1, "no-such-backend")));
  Result<Program> program = Program::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok());
  Pools pools(program->buffer_size(0));
  EXPECT_EQ(Method::load(*program, pools.manager).error(), Error::kDelegateMissing);
  EXPECT_EQ(g_released, 1);
}

// A Result in error holds no value (T needs no default constructor) and reading one ends
// the program with a message instead of returning garbage.
TEST(ResultTest, ErrorHoldsNoValueAndReadingItAborts) {
  struct NoDefault {
    explicit NoDefault(int v) : value(v) {}
    int value;
  };
  Result<NoDefault> good(NoDefault(7));
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(good->value, 7);
  Result<NoDefault> bad(Error::kNotFound);
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), Error::kNotFound);
  EXPECT_EQ(Result<NoDefault>(Error::kOk).error(), Error::kInternal);  // never ok without T
  EXPECT_DEATH((void)bad.get(), "Result: value read from an error");
  EXPECT_DEATH((void)bad->value, "Result: value read from an error");
}

TEST(MemoryAllocatorTest, AlignsAndRefusesOverflow) {
  alignas(16) uint8_t pool[64];
  MemoryAllocator alloc(pool, sizeof(pool));
  void* a = alloc.allocate(3, 1);
  void* b = alloc.allocate(8, 8);
  EXPECT_EQ(a, pool);
  EXPECT_EQ(b, pool + 8);
  EXPECT_EQ(alloc.allocate(49, 1), nullptr);
  EXPECT_EQ(alloc.allocate(48, 1), pool + 16);
  EXPECT_EQ(alloc.allocate(1, 1), nullptr);
  EXPECT_EQ(alloc.allocate(1, 3), nullptr);  // not a power of two
  EXPECT_EQ(alloc.high_water_mark(), 64u);
}

struct EventLog {
  std::vector<std::string> lines;
};

void log_event(void* context, ProfileEvent event, uint32_t index, const char* name,
               uint32_t elements, const char* phase) {
  static_cast<EventLog*>(context)->lines.push_back(std::string(phase) + " " + to_string(event) +
                                                   " " + std::to_string(index) + " " + name + " " +
                                                   std::to_string(elements));
}

TEST(MethodTest, ProfilingHooksSeeEveryPhase) {
  EventLog log;
  ProfilingHooks hooks;
  hooks.begin = [](void* c, ProfileEvent e, uint32_t i, const char* n, uint32_t el) {
    log_event(c, e, i, n, el, "B");
  };
  hooks.end = [](void* c, ProfileEvent e, uint32_t i, const char* n, uint32_t el) {
    log_event(c, e, i, n, el, "E");
  };
  hooks.context = &log;
  set_profiling_hooks(&hooks);
  {
    test::ProgramSpec spec = add8_program(8, true);
    test::InstructionSpec second = spec.instructions[0];
    second.name = ops::Add::kName;
    spec.instructions.push_back(second);
    AlignedBytes bytes(build_program(spec));
    Result<Program> program = Program::load(bytes.data(), bytes.size());
    ASSERT_TRUE(program.ok());
    Pools pools(program->buffer_size(0));
    Result<Method> method = Method::load(*program, pools.manager);
    ASSERT_TRUE(method.ok());
    ASSERT_EQ(method->execute(), Error::kOk);
  }
  set_profiling_hooks(nullptr);
  const std::vector<std::string> expected = {
      "B program_load 0 program_load " + log.lines[0].substr(log.lines[0].rfind(' ') + 1),
      "E program_load 0 program_load " + log.lines[0].substr(log.lines[0].rfind(' ') + 1),
      "B method_load 0 method_load 2",
      "B method_init 0 method_init 2",
      "E method_init 0 method_init 2",
      "E method_load 0 method_load 2",
      "B execute 0 execute 2",
      "B delegate 0 cpu-packed 8",
      "E delegate 0 cpu-packed 8",
      std::string("B operator 1 ") + ops::Add::kName + " 8",
      std::string("E operator 1 ") + ops::Add::kName + " 8",
      "E execute 0 execute 2",
  };
  EXPECT_EQ(log.lines, expected);
}

// The registry holds exactly the kernels the operator schema lists (a kernel file that
// registers another operator or element type fails to compile; one that misses a listed
// kernel fails here).
TEST(KernelRegistryTest, HoldsEverySchemaKernelOnce) {
  EXPECT_EQ(kernel_registry_status(), Error::kOk);
  ASSERT_EQ(registered_kernel_count(), std::size(ops::kSchemaKernels));
  for (const ops::KernelKey& key : ops::kSchemaKernels) {
    EXPECT_NE(find_kernel(key.name, strlen(key.name), static_cast<ScalarType>(key.dtype)), nullptr)
        << key.name << " dtype " << int{key.dtype};
  }
  const char* conv = ops::QuantizedConvolution::kName;
  const std::string longer = std::string(conv) + "_extra";
  EXPECT_NE(find_kernel(longer.c_str(), strlen(conv), ScalarType::kInt8), nullptr);  // bounded
  EXPECT_EQ(find_kernel(conv, strlen(conv) - 1, ScalarType::kInt8), nullptr);
  const char* quantize = ops::QuantizePerTensor::kName;
  EXPECT_EQ(find_kernel(quantize, strlen(quantize), ScalarType::kInt8), nullptr);
  const char* add = ops::Add::kName;
  EXPECT_EQ(register_kernel(*find_kernel(add, strlen(add), ScalarType::kInt8)),
            Error::kInvalidArgument);
  EXPECT_EQ(kernel_registry_status(), Error::kInvalidArgument);
}

TEST(KernelRegistryTest, FullRegistryIsAnError) {
  static const char* names[kMaxKernels];
  static char storage[kMaxKernels][16];
  Error last = Error::kOk;
  for (size_t i = 0; i < kMaxKernels; ++i) {
    snprintf(storage[i], sizeof(storage[i]), "dummy_%zu", i);
    names[i] = storage[i];
    last = register_kernel(
        Kernel{names[i], ScalarType::kInt8, [](const KernelArgs&) { return Error::kOk; }, 0});
    if (last != Error::kOk) break;
  }
  EXPECT_EQ(last, Error::kRegistryFull);
  EXPECT_EQ(registered_kernel_count(), kMaxKernels);
}

}  // namespace
}  // namespace socsim::runtime
