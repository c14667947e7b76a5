// Program::load: accepts well-formed files, and rejects truncated or corrupt ones with the
// right error, never reading outside the given bytes (run under a sanitizer to be sure).
#include "firmware/runtime/program.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "firmware/abi/generated/operators.h"
#include "firmware/abi/generated/program_layout.h"
#include "firmware/runtime/test/program_builder.h"

namespace socsim::runtime {
namespace {

namespace abi = ::socsim::abi;
using test::add8_program;
using test::AlignedBytes;
using test::build_program;

uint32_t get_u32(const std::vector<uint8_t>& b, size_t at) {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (static_cast<uint32_t>(b[at + 3]) << 24);
}
void set_u32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

Error load_error(const std::vector<uint8_t>& bytes) {
  AlignedBytes aligned(bytes);
  return Program::load(aligned.data(), aligned.size()).error();
}

/// A program with a constant, a per-channel tensor and a delegate, to reach every table.
test::ProgramSpec rich_program() {
  test::ProgramSpec spec = add8_program(8, false);
  test::TensorSpec weights;
  weights.dtype = 2;
  weights.dims = {2, 4};
  weights.constant = true;
  weights.data = {1, 2, 3, 4, 5, 6, 7, 8};
  weights.quant = 2;
  weights.axis = 0;
  weights.scales = {0.5f, 0.25f};
  spec.tensors.push_back(weights);
  test::TensorSpec out2 = spec.tensors[2];
  out2.offset = spec.buffers[0];
  spec.buffers[0] += 16;
  spec.tensors.push_back(out2);
  test::InstructionSpec d;
  d.inputs = {0, 1};
  d.outputs = {4};
  d.delegate = 0;
  spec.instructions.push_back(d);
  test::ProgramSpec delegated = add8_program(8, true);
  spec.delegates = delegated.delegates;
  return spec;
}

TEST(ProgramTest, LoadsWellFormedFileAndDescribesIt) {
  AlignedBytes bytes(build_program(rich_program()));
  Result<Program> program = Program::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok()) << to_string(program.error());
  EXPECT_EQ(program->tensor_count(), 5u);
  EXPECT_EQ(program->instruction_count(), 2u);
  EXPECT_EQ(program->delegate_count(), 1u);
  const MethodMeta meta = program->method_meta();
  EXPECT_EQ(meta.num_inputs(), 2u);
  EXPECT_EQ(meta.num_outputs(), 1u);
  EXPECT_EQ(meta.input_tensor_meta(1).dims[0], 8u);
  EXPECT_EQ(meta.input_tensor_meta(1).dtype, ScalarType::kInt8);
  EXPECT_EQ(meta.num_memory_planned_buffers(), 1u);
  EXPECT_EQ(meta.memory_planned_buffer_size(0), 64u);
  const TensorRecord w = program->tensor(3);
  EXPECT_EQ(w.quant_kind, QuantKind::kPerChannel);
  EXPECT_EQ(w.channels, 2u);
  const uint8_t* weights = program->constant_segment() + w.offset;
  EXPECT_EQ(weights[7], 8);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(weights) % 16, 0u);
  const InstructionRecord ins = program->instruction(0);
  EXPECT_EQ(std::string(ins.name), ops::Add::kName);
  const DelegateRecord d = program->delegate(0);
  EXPECT_EQ(std::string(d.backend_id), "cpu-packed");
  EXPECT_EQ(d.blob_size, 16u);
}

TEST(ProgramTest, RejectsBadHeaders) {
  const std::vector<uint8_t> good = build_program(rich_program());
  std::vector<uint8_t> b = good;
  b[0] = 'X';
  EXPECT_EQ(load_error(b), Error::kProgramBadMagic);
  b = good;
  b[abi::program_header::kVersionMajor] = abi::kProgramVersionMajor + 1;
  EXPECT_EQ(load_error(b), Error::kProgramBadVersion);
  // Version 1 named operators differently (add, conv2d, ...): its files are rejected.
  b = good;
  b[abi::program_header::kVersionMajor] = 1;
  EXPECT_EQ(load_error(b), Error::kProgramBadVersion);
  b = good;
  set_u32(b, abi::program_header::kFlags, 1);
  EXPECT_EQ(load_error(b), Error::kProgramBadVersion);
  b = good;
  set_u32(b, abi::program_header::kFileSize, static_cast<uint32_t>(good.size() + 1));
  EXPECT_EQ(load_error(b), Error::kProgramTruncated);
  EXPECT_EQ(Program::load(nullptr, 100).error(), Error::kInvalidArgument);
  AlignedBytes aligned(good);
  EXPECT_EQ(Program::load(aligned.data() + 1, good.size()).error(), Error::kProgramMisaligned);
}

TEST(ProgramTest, EveryTruncationIsRejected) {
  const std::vector<uint8_t> good = build_program(rich_program());
  AlignedBytes aligned(good);
  for (size_t cut = 0; cut < good.size(); ++cut) {
    const Error e = Program::load(aligned.data(), cut).error();
    EXPECT_EQ(e, Error::kProgramTruncated) << "cut at " << cut;
  }
  // Also when the header is rewritten to claim the shorter size: tables or the constant
  // segment then reach past the end.
  for (size_t cut = abi::program_header::kSize; cut < good.size(); ++cut) {
    std::vector<uint8_t> b(good.begin(), good.begin() + cut);
    set_u32(b, abi::program_header::kFileSize, static_cast<uint32_t>(cut));
    EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds) << "cut at " << cut;
  }
}

TEST(ProgramTest, HugeCountsAndOffsetsAreRejected) {
  const std::vector<uint8_t> good = build_program(rich_program());
  const uint32_t count_fields[] = {
      abi::program_header::kTensorCount, abi::program_header::kInstructionCount,
      abi::program_header::kBufferCount, abi::program_header::kDelegateCount,
      abi::program_header::kDataSize};
  for (uint32_t field : count_fields) {
    for (uint32_t value : {0xFFFFFFFFu, 0x80000000u, 0x04000001u}) {
      std::vector<uint8_t> b = good;
      set_u32(b, field, value);
      EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds) << field << " = " << value;
    }
  }
  const uint32_t offset_fields[] = {
      abi::program_header::kTensorsOffset, abi::program_header::kInstructionsOffset,
      abi::program_header::kBuffersOffset, abi::program_header::kDelegatesOffset,
      abi::program_header::kIoOffset,      abi::program_header::kDataOffset};
  for (uint32_t field : offset_fields) {
    std::vector<uint8_t> b = good;
    set_u32(b, field, 0xFFFFFFF0u);
    EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds) << field;
  }
  std::vector<uint8_t> b = good;
  set_u32(b, abi::program_header::kTensorsOffset,
          get_u32(good, abi::program_header::kTensorsOffset) + 2);
  EXPECT_EQ(load_error(b), Error::kProgramMisaligned);
}

class CorruptRecordTest : public ::testing::Test {
 protected:
  void SetUp() override { good_ = build_program(rich_program()); }
  size_t tensor(uint32_t i) const {
    return get_u32(good_, abi::program_header::kTensorsOffset) + i * abi::tensor_record::kSize;
  }
  size_t instruction(uint32_t i) const {
    return get_u32(good_, abi::program_header::kInstructionsOffset) +
           i * abi::instruction_record::kSize;
  }
  size_t delegate(uint32_t i) const {
    return get_u32(good_, abi::program_header::kDelegatesOffset) + i * abi::delegate_record::kSize;
  }
  std::vector<uint8_t> good_;
};

TEST_F(CorruptRecordTest, Tensors) {
  std::vector<uint8_t> b = good_;
  b[tensor(0) + abi::tensor_record::kDtype] = 9;
  EXPECT_EQ(load_error(b), Error::kProgramBadTensor);
  b = good_;
  b[tensor(0) + abi::tensor_record::kRank] = 7;
  EXPECT_EQ(load_error(b), Error::kProgramBadTensor);
  b = good_;  // numel overflows 32 bits
  b[tensor(0) + abi::tensor_record::kRank] = 3;
  set_u32(b, tensor(0) + abi::tensor_record::kDims + 4, 0x10000);
  set_u32(b, tensor(0) + abi::tensor_record::kDims + 8, 0x10000);
  EXPECT_EQ(load_error(b), Error::kProgramBadTensor);
  b = good_;  // nbytes disagrees with shape
  set_u32(b, tensor(0) + abi::tensor_record::kNbytes, 9);
  EXPECT_EQ(load_error(b), Error::kProgramBadTensor);
  b = good_;
  set_u32(b, tensor(1) + abi::tensor_record::kOffset, 0x7FFFFFF0u);
  EXPECT_EQ(load_error(b), Error::kProgramBadMemoryPlan);
  b = good_;
  set_u32(b, tensor(1) + abi::tensor_record::kBuffer, 1);
  EXPECT_EQ(load_error(b), Error::kProgramBadMemoryPlan);
  b = good_;
  set_u32(b, tensor(1) + abi::tensor_record::kOffset, 8);
  EXPECT_EQ(load_error(b), Error::kProgramMisaligned);
  b = good_;  // constant past the constant segment
  set_u32(b, tensor(3) + abi::tensor_record::kOffset, 0x100);
  EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds);
  b = good_;  // per-channel count must match the axis
  set_u32(b, tensor(3) + abi::tensor_record::kChannels, 3);
  EXPECT_EQ(load_error(b), Error::kProgramBadTensor);
  // Per-channel scales: NaN, the infinities, zeros, negative values and 3.0e38 or more are
  // refused; the smallest denormal and the largest float below 3.0e38 are accepted.
  const size_t scale = get_u32(good_, tensor(3) + abi::tensor_record::kScalesOffset);
  for (uint32_t bits : {0x7FC00000u, 0x7F800000u, 0xFF800000u, 0x00000000u, 0x80000000u,
                        0x80000001u, 0xBF800000u, 0x7F61B1E6u, 0x7F61B1E7u, 0xFFFFFFFFu}) {
    b = good_;
    set_u32(b, scale, bits);
    EXPECT_EQ(load_error(b), Error::kProgramBadTensor) << std::hex << bits;
  }
  for (uint32_t bits : {0x00000001u, 0x7F61B1E5u, 0x3F800000u}) {
    b = good_;
    set_u32(b, scale, bits);
    EXPECT_EQ(load_error(b), Error::kOk) << std::hex << bits;
  }
  b = good_;  // inputs must be planned, never the file's bytes
  b[tensor(0) + abi::tensor_record::kStorage] = abi::kStorageConstant;
  set_u32(b, tensor(0) + abi::tensor_record::kBuffer, abi::kNoBuffer);
  set_u32(b, tensor(0) + abi::tensor_record::kOffset, 0);
  EXPECT_EQ(load_error(b), Error::kProgramBadTensor);
}

TEST_F(CorruptRecordTest, InstructionsAndDelegates) {
  std::vector<uint8_t> b = good_;
  b[instruction(0) + abi::instruction_record::kKind] = 3;
  EXPECT_EQ(load_error(b), Error::kProgramBadInstruction);
  b = good_;  // tensor id out of range
  set_u32(b, get_u32(good_, instruction(0) + abi::instruction_record::kTensorsOffset), 99);
  EXPECT_EQ(load_error(b), Error::kProgramBadInstruction);
  b = good_;  // output is a constant: kernels would write into the file
  set_u32(b, get_u32(good_, instruction(0) + abi::instruction_record::kTensorsOffset) + 8, 3);
  EXPECT_EQ(load_error(b), Error::kProgramBadInstruction);
  b = good_;  // name no longer NUL-terminated where the length says
  set_u32(b, instruction(0) + abi::instruction_record::kNameLength, 2);
  EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds);
  b = good_;
  set_u32(b, instruction(0) + abi::instruction_record::kArgCount, 0x40000000u);
  EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds);
  b = good_;
  set_u32(b, instruction(1) + abi::instruction_record::kDelegateIndex, 1);
  EXPECT_EQ(load_error(b), Error::kProgramBadInstruction);
  b = good_;
  set_u32(b, delegate(0) + abi::delegate_record::kBlobSize, 0xFFFFFFF0u);
  EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds);
  b = good_;
  set_u32(b, delegate(0) + abi::delegate_record::kBlobOffset, get_u32(good_, delegate(0) + 8) + 4);
  EXPECT_EQ(load_error(b), Error::kProgramMisaligned);
}

TEST(ProgramTest, RandomByteFlipsNeverBreakTheInvariants) {
  const std::vector<uint8_t> good = build_program(rich_program());
  std::mt19937 rng(1234);
  int rejected = 0;
  const int kRuns = 20000;
  for (int run = 0; run < kRuns; ++run) {
    std::vector<uint8_t> b = good;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) b[rng() % b.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    AlignedBytes aligned(b);
    Result<Program> program = Program::load(aligned.data(), aligned.size());
    if (!program.ok()) {
      ++rejected;
      continue;
    }
    // Whatever was accepted must satisfy what later stages rely on.
    for (uint32_t t = 0; t < program->tensor_count(); ++t) {
      const TensorRecord rec = program->tensor(t);
      if (rec.storage == abi::kStoragePlanned) {
        ASSERT_LE(uint64_t{rec.offset} + rec.nbytes, program->buffer_size(rec.buffer));
      } else {
        ASSERT_EQ(rec.storage, abi::kStorageConstant);
      }
    }
  }
  // Most bytes of this small file are structural; a flip there must be caught.
  EXPECT_GT(rejected, kRuns / 2);
}

}  // namespace
}  // namespace socsim::runtime
