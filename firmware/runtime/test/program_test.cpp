// Program::load: accepts well-formed files, and rejects truncated or corrupt ones with the
// right error, never reading outside the given bytes (run under a sanitizer to be sure).
#include "firmware/runtime/program.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "firmware/runtime/program_format.h"
#include "firmware/runtime/test/program_builder.h"

namespace socsim::runtime {
namespace {

namespace fmt = format;
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
  EXPECT_EQ(std::string(ins.name), "add");
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
  b[fmt::kHdrVersionMajor] = 2;
  EXPECT_EQ(load_error(b), Error::kProgramBadVersion);
  b = good;
  set_u32(b, fmt::kHdrFlags, 1);
  EXPECT_EQ(load_error(b), Error::kProgramBadVersion);
  b = good;
  set_u32(b, fmt::kHdrFileSize, static_cast<uint32_t>(good.size() + 1));
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
  for (size_t cut = fmt::kHeaderSize; cut < good.size(); ++cut) {
    std::vector<uint8_t> b(good.begin(), good.begin() + cut);
    set_u32(b, fmt::kHdrFileSize, static_cast<uint32_t>(cut));
    EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds) << "cut at " << cut;
  }
}

TEST(ProgramTest, HugeCountsAndOffsetsAreRejected) {
  const std::vector<uint8_t> good = build_program(rich_program());
  const uint32_t count_fields[] = {fmt::kHdrTensorCount, fmt::kHdrInstructionCount,
                                   fmt::kHdrBufferCount, fmt::kHdrDelegateCount, fmt::kHdrDataSize};
  for (uint32_t field : count_fields) {
    for (uint32_t value : {0xFFFFFFFFu, 0x80000000u, 0x04000001u}) {
      std::vector<uint8_t> b = good;
      set_u32(b, field, value);
      EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds) << field << " = " << value;
    }
  }
  const uint32_t offset_fields[] = {fmt::kHdrTensorsOffset, fmt::kHdrInstructionsOffset,
                                    fmt::kHdrBuffersOffset, fmt::kHdrDelegatesOffset,
                                    fmt::kHdrIoOffset,      fmt::kHdrDataOffset};
  for (uint32_t field : offset_fields) {
    std::vector<uint8_t> b = good;
    set_u32(b, field, 0xFFFFFFF0u);
    EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds) << field;
  }
  std::vector<uint8_t> b = good;
  set_u32(b, fmt::kHdrTensorsOffset, get_u32(good, fmt::kHdrTensorsOffset) + 2);
  EXPECT_EQ(load_error(b), Error::kProgramMisaligned);
}

class CorruptRecordTest : public ::testing::Test {
 protected:
  void SetUp() override { good_ = build_program(rich_program()); }
  size_t tensor(uint32_t i) const {
    return get_u32(good_, fmt::kHdrTensorsOffset) + i * fmt::kTensorRecordSize;
  }
  size_t instruction(uint32_t i) const {
    return get_u32(good_, fmt::kHdrInstructionsOffset) + i * fmt::kInstructionRecordSize;
  }
  size_t delegate(uint32_t i) const {
    return get_u32(good_, fmt::kHdrDelegatesOffset) + i * fmt::kDelegateRecordSize;
  }
  std::vector<uint8_t> good_;
};

TEST_F(CorruptRecordTest, Tensors) {
  std::vector<uint8_t> b = good_;
  b[tensor(0) + fmt::kTenDtype] = 9;
  EXPECT_EQ(load_error(b), Error::kProgramBadTensor);
  b = good_;
  b[tensor(0) + fmt::kTenRank] = 7;
  EXPECT_EQ(load_error(b), Error::kProgramBadTensor);
  b = good_;  // numel overflows 32 bits
  b[tensor(0) + fmt::kTenRank] = 3;
  set_u32(b, tensor(0) + fmt::kTenDims + 4, 0x10000);
  set_u32(b, tensor(0) + fmt::kTenDims + 8, 0x10000);
  EXPECT_EQ(load_error(b), Error::kProgramBadTensor);
  b = good_;  // nbytes disagrees with shape
  set_u32(b, tensor(0) + fmt::kTenNbytes, 9);
  EXPECT_EQ(load_error(b), Error::kProgramBadTensor);
  b = good_;
  set_u32(b, tensor(1) + fmt::kTenOffset, 0x7FFFFFF0u);
  EXPECT_EQ(load_error(b), Error::kProgramBadMemoryPlan);
  b = good_;
  set_u32(b, tensor(1) + fmt::kTenBuffer, 1);
  EXPECT_EQ(load_error(b), Error::kProgramBadMemoryPlan);
  b = good_;
  set_u32(b, tensor(1) + fmt::kTenOffset, 8);
  EXPECT_EQ(load_error(b), Error::kProgramMisaligned);
  b = good_;  // constant past the constant segment
  set_u32(b, tensor(3) + fmt::kTenOffset, 0x100);
  EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds);
  b = good_;  // per-channel count must match the axis
  set_u32(b, tensor(3) + fmt::kTenChannels, 3);
  EXPECT_EQ(load_error(b), Error::kProgramBadTensor);
  b = good_;  // NaN scale
  set_u32(b, get_u32(good_, tensor(3) + fmt::kTenScalesOffset), 0x7FC00000u);
  EXPECT_EQ(load_error(b), Error::kProgramBadTensor);
  b = good_;  // inputs must be planned, never the file's bytes
  b[tensor(0) + fmt::kTenStorage] = fmt::kStorageConstant;
  set_u32(b, tensor(0) + fmt::kTenBuffer, fmt::kNoBuffer);
  set_u32(b, tensor(0) + fmt::kTenOffset, 0);
  EXPECT_EQ(load_error(b), Error::kProgramBadTensor);
}

TEST_F(CorruptRecordTest, InstructionsAndDelegates) {
  std::vector<uint8_t> b = good_;
  b[instruction(0) + fmt::kInsKind] = 3;
  EXPECT_EQ(load_error(b), Error::kProgramBadInstruction);
  b = good_;  // tensor id out of range
  set_u32(b, get_u32(good_, instruction(0) + fmt::kInsTensorsOffset), 99);
  EXPECT_EQ(load_error(b), Error::kProgramBadInstruction);
  b = good_;  // output is a constant: kernels would write into the file
  set_u32(b, get_u32(good_, instruction(0) + fmt::kInsTensorsOffset) + 8, 3);
  EXPECT_EQ(load_error(b), Error::kProgramBadInstruction);
  b = good_;  // name no longer NUL-terminated where the length says
  set_u32(b, instruction(0) + fmt::kInsNameLength, 2);
  EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds);
  b = good_;
  set_u32(b, instruction(0) + fmt::kInsArgCount, 0x40000000u);
  EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds);
  b = good_;
  set_u32(b, instruction(1) + fmt::kInsDelegateIndex, 1);
  EXPECT_EQ(load_error(b), Error::kProgramBadInstruction);
  b = good_;
  set_u32(b, delegate(0) + fmt::kDelBlobSize, 0xFFFFFFF0u);
  EXPECT_EQ(load_error(b), Error::kProgramOutOfBounds);
  b = good_;
  set_u32(b, delegate(0) + fmt::kDelBlobOffset, get_u32(good_, delegate(0) + 8) + 4);
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
      if (rec.storage == fmt::kStoragePlanned) {
        ASSERT_LE(uint64_t{rec.offset} + rec.nbytes, program->buffer_size(rec.buffer));
      } else {
        ASSERT_EQ(rec.storage, fmt::kStorageConstant);
      }
    }
  }
  // Most bytes of this small file are structural; a flip there must be caught.
  EXPECT_GT(rejected, kRuns / 2);
}

}  // namespace
}  // namespace socsim::runtime
