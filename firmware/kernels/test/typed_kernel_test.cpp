// The generated unboxing wrappers (firmware/kernels/generated/signatures.h) and the kernel
// table sized from the operator schema: boxed calls with the wrong operand or argument
// counts, or element types the schema does not allow, are refused before the typed kernel
// runs, through the entry points the runtime calls.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "firmware/abi/generated/operators.h"
#include "firmware/kernels/elementwise.h"
#include "firmware/kernels/unary_ops.h"
#include "firmware/runtime/kernel_registry.h"
#include "firmware/runtime/tensor.h"

namespace socsim::runtime {
namespace {

/// A tensor over caller-owned zeroed bytes.
struct TestTensor {
  Tensor t;
  std::vector<int32_t> words;

  TestTensor(ScalarType dtype, std::initializer_list<int32_t> sizes) {
    t.dtype = dtype;
    t.rank = static_cast<uint32_t>(sizes.size());
    uint32_t i = 0;
    for (int32_t s : sizes) t.sizes[i++] = s;
    t.nbytes = t.numel() * element_size(dtype);
    words.assign(t.nbytes / 4 + 1, 0);
    t.data = words.data();
  }
};

/// A boxed call of the kernel for (Op, dtype of the first input).
template <typename Op>
struct Call {
  std::vector<Tensor*> inputs;
  std::vector<Tensor*> outputs;
  std::vector<int32_t> args;

  Error run(ScalarType key) {
    const Kernel* kernel = find_kernel(Op::kName, Op::kNameLength, key);
    if (kernel == nullptr) return Error::kOperatorMissing;
    std::vector<uint8_t> scratch(256);
    MemoryAllocator temp(scratch.data(), scratch.size());
    KernelArgs k;
    k.inputs = inputs.data();
    k.input_count = static_cast<uint32_t>(inputs.size());
    k.outputs = outputs.data();
    k.output_count = static_cast<uint32_t>(outputs.size());
    k.args = args.data();
    k.arg_count = static_cast<uint32_t>(args.size());
    k.temp = &temp;
    return kernel->fn(k);
  }
};

TEST(KernelWrapperTest, AddChecksOperandAndArgumentCounts) {
  TestTensor a(ScalarType::kFloat32, {4}), b(ScalarType::kFloat32, {4});
  TestTensor out(ScalarType::kFloat32, {4});
  Call<ops::Add> call{{&a.t, &b.t}, {&out.t}, {}};
  EXPECT_EQ(call.run(ScalarType::kFloat32), Error::kOk);

  Call<ops::Add> one_input{{&a.t}, {&out.t}, {}};
  EXPECT_EQ(one_input.run(ScalarType::kFloat32), Error::kBadOperatorArgs);
  Call<ops::Add> three_inputs{{&a.t, &b.t, &b.t}, {&out.t}, {}};
  EXPECT_EQ(three_inputs.run(ScalarType::kFloat32), Error::kBadOperatorArgs);
  Call<ops::Add> no_output{{&a.t, &b.t}, {}, {}};
  EXPECT_EQ(no_output.run(ScalarType::kFloat32), Error::kBadOperatorArgs);
  Call<ops::Add> an_argument{{&a.t, &b.t}, {&out.t}, {0}};
  EXPECT_EQ(an_argument.run(ScalarType::kFloat32), Error::kBadOperatorArgs);
}

TEST(KernelWrapperTest, QuantizedAddNeedsItsEightArguments) {
  TestTensor a(ScalarType::kInt8, {4}), b(ScalarType::kInt8, {4}), out(ScalarType::kInt8, {4});
  static_assert(ops::QuantizedAdd::kArgs == 8, "quantized add's arguments");
  Call<ops::QuantizedAdd> seven{{&a.t, &b.t}, {&out.t}, std::vector<int32_t>(7, 0)};
  EXPECT_EQ(seven.run(ScalarType::kInt8), Error::kBadOperatorArgs);
  Call<ops::QuantizedAdd> nine{{&a.t, &b.t}, {&out.t}, std::vector<int32_t>(9, 0)};
  EXPECT_EQ(nine.run(ScalarType::kInt8), Error::kBadOperatorArgs);
  // zp_a, m_a, zp_b, m_b, n, zp_out, act_min, act_max.
  Call<ops::QuantizedAdd> eight{{&a.t, &b.t}, {&out.t}, {0, 1, 0, 1, 1, 0, -128, 127}};
  EXPECT_EQ(eight.run(ScalarType::kInt8), Error::kOk);
}

TEST(KernelWrapperTest, PerAxisListsAreCountedPerAxisOfTheFirstInput) {
  TestTensor x(ScalarType::kFloat32, {2, 3}), y(ScalarType::kFloat32, {3, 2});
  Call<ops::PermuteCopy> perm{{&x.t}, {&y.t}, {1, 0}};
  EXPECT_EQ(perm.run(ScalarType::kFloat32), Error::kOk);
  Call<ops::PermuteCopy> short_perm{{&x.t}, {&y.t}, {1}};
  EXPECT_EQ(short_perm.run(ScalarType::kFloat32), Error::kBadOperatorArgs);
  Call<ops::PermuteCopy> long_perm{{&x.t}, {&y.t}, {1, 0, 2}};
  EXPECT_EQ(long_perm.run(ScalarType::kFloat32), Error::kBadOperatorArgs);

  // constant_pad_nd: two words (before, after) per axis.
  TestTensor value(ScalarType::kFloat32, {1}), padded(ScalarType::kFloat32, {2, 5});
  Call<ops::ConstantPadNd> pad{{&x.t, &value.t}, {&padded.t}, {0, 0, 1, 1}};
  EXPECT_EQ(pad.run(ScalarType::kFloat32), Error::kOk);
  Call<ops::ConstantPadNd> one_per_axis{{&x.t, &value.t}, {&padded.t}, {0, 2}};
  EXPECT_EQ(one_per_axis.run(ScalarType::kFloat32), Error::kBadOperatorArgs);
}

TEST(KernelWrapperTest, VariadicOperandNeedsOneTensorOfTheKeyType) {
  TestTensor a(ScalarType::kInt8, {2}), b(ScalarType::kInt8, {3}), out(ScalarType::kInt8, {5});
  Call<ops::Cat> cat{{&a.t, &b.t}, {&out.t}, {0}};
  EXPECT_EQ(cat.run(ScalarType::kInt8), Error::kOk);
  Call<ops::Cat> none{{}, {&out.t}, {0}};
  EXPECT_EQ(none.run(ScalarType::kInt8), Error::kBadOperatorArgs);
  TestTensor f(ScalarType::kFloat32, {3});
  Call<ops::Cat> mixed{{&a.t, &f.t}, {&out.t}, {0}};
  EXPECT_EQ(mixed.run(ScalarType::kInt8), Error::kDtypeMismatch);
}

TEST(KernelWrapperTest, ElementTypesFollowTheSchema) {
  // Every T operand has the first input's type.
  TestTensor a(ScalarType::kFloat32, {4}), b(ScalarType::kFloat32, {4});
  TestTensor int8_out(ScalarType::kInt8, {4});
  Call<ops::Add> add{{&a.t, &b.t}, {&int8_out.t}, {}};
  EXPECT_EQ(add.run(ScalarType::kFloat32), Error::kDtypeMismatch);
  // Operands of a named type: quantize_per_tensor writes int8 whatever its float input.
  TestTensor float_out(ScalarType::kFloat32, {4});
  Call<ops::QuantizePerTensor> quantize{{&a.t}, {&float_out.t}, {0x3F800000, 0}};
  EXPECT_EQ(quantize.run(ScalarType::kFloat32), Error::kDtypeMismatch);
  Call<ops::QuantizePerTensor> quantize_ok{{&a.t}, {&int8_out.t}, {0x3F800000, 0}};
  EXPECT_EQ(quantize_ok.run(ScalarType::kFloat32), Error::kOk);
}

// The table holds one entry per (operator, element type) kernel of the schema, and a full
// build registers every one of them: the size is the schema's, neither short nor padded
// (KernelRegistryTest.HoldsEverySchemaKernelOnce checks each entry's lookup).
TEST(KernelRegistrySizeTest, TableIsTheSchemasKernelList) {
  constexpr size_t schema = sizeof(ops::kSchemaKernels) / sizeof(ops::kSchemaKernels[0]);
  static_assert(kMaxKernels == schema, "the kernel table is sized from the schema");
#ifndef SOCSIM_ALL_KERNELS
  GTEST_SKIP() << "selective kernel build (SOCSIM_KERNEL_OPS)";
#endif
  EXPECT_EQ(kernel_registry_status(), Error::kOk);
  EXPECT_EQ(registered_kernel_count(), kMaxKernels);
  for (const ops::KernelKey& key : ops::kSchemaKernels) {
    EXPECT_NE(find_kernel(key.name, strlen(key.name), static_cast<ScalarType>(key.dtype)),
              nullptr)
        << key.name << " dtype " << int{key.dtype};
  }
  // Full: a kernel the schema does not list has no room.
  EXPECT_EQ(register_kernel(Kernel{"test::extra.out", ScalarType::kInt8,
                                   [](const KernelArgs&) { return Error::kOk; }, 0}),
            Error::kRegistryFull);
}

}  // namespace
}  // namespace socsim::runtime
