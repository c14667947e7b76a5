// Program file writer for tests; layout as in docs/program-format.md.
#include "firmware/runtime/test/program_builder.h"

#include <cstring>

#include "firmware/abi/generated/operators.h"
#include "firmware/abi/generated/program_layout.h"

namespace socsim::runtime::test {
namespace {

namespace abi = ::socsim::abi;

void put_u32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
void put_u16(std::vector<uint8_t>& b, size_t at, uint16_t v) {
  b[at] = static_cast<uint8_t>(v);
  b[at + 1] = static_cast<uint8_t>(v >> 8);
}
void align(std::vector<uint8_t>& b, size_t a) {
  while (b.size() % a != 0) b.push_back(0);
}
uint32_t append(std::vector<uint8_t>& b, const void* data, size_t n, size_t a) {
  align(b, a);
  const auto at = static_cast<uint32_t>(b.size());
  const auto* p = static_cast<const uint8_t*>(data);
  b.insert(b.end(), p, p + n);
  return at;
}
uint32_t append_string(std::vector<uint8_t>& b, const std::string& s) {
  return append(b, s.c_str(), s.size() + 1, 1);
}

}  // namespace

std::vector<uint8_t> build_program(const ProgramSpec& spec) {
  std::vector<uint8_t> b(abi::program_header::kSize, 0);
  std::memcpy(b.data(), abi::kProgramMagic, 4);
  put_u16(b, abi::program_header::kVersionMajor, abi::kProgramVersionMajor);
  put_u16(b, abi::program_header::kVersionMinor, abi::kProgramVersionMinor);

  // Variable-length pieces first, tables after, constants last.
  std::vector<uint32_t> name_at, ids_at, args_at, backend_at, scales_at, zps_at;
  for (const auto& ins : spec.instructions) {
    name_at.push_back(ins.name.empty() ? 0 : append_string(b, ins.name));
    std::vector<uint32_t> ids = ins.inputs;
    ids.insert(ids.end(), ins.outputs.begin(), ins.outputs.end());
    ids_at.push_back(append(b, ids.data(), ids.size() * 4, 4));
    args_at.push_back(append(b, ins.args.data(), ins.args.size() * 4, 4));
  }
  for (const auto& d : spec.delegates) backend_at.push_back(append_string(b, d.backend));
  for (const auto& t : spec.tensors) {
    std::vector<int32_t> zps(t.scales.size(), 0);
    scales_at.push_back(append(b, t.scales.data(), t.scales.size() * 4, 4));
    zps_at.push_back(append(b, zps.data(), zps.size() * 4, 4));
  }
  std::vector<uint32_t> io = spec.inputs;
  io.insert(io.end(), spec.outputs.begin(), spec.outputs.end());
  const uint32_t io_at = append(b, io.data(), io.size() * 4, 4);
  const uint32_t buffers_at = append(b, spec.buffers.data(), spec.buffers.size() * 4, 4);

  align(b, 4);
  const auto tensors_at = static_cast<uint32_t>(b.size());
  b.resize(b.size() + spec.tensors.size() * abi::tensor_record::kSize, 0);
  const auto instructions_at = static_cast<uint32_t>(b.size());
  b.resize(b.size() + spec.instructions.size() * abi::instruction_record::kSize, 0);
  const auto delegates_at = static_cast<uint32_t>(b.size());
  b.resize(b.size() + spec.delegates.size() * abi::delegate_record::kSize, 0);

  std::vector<uint32_t> blob_at;
  for (const auto& d : spec.delegates)
    blob_at.push_back(append(b, d.blob.data(), d.blob.size(), 16));
  align(b, abi::kDataAlignment);
  const auto data_at = static_cast<uint32_t>(b.size());
  std::vector<uint32_t> const_at;
  for (const auto& t : spec.tensors) {
    const_at.push_back(t.constant ? append(b, t.data.data(), t.data.size(), 16) - data_at : 0);
  }
  align(b, abi::kDataAlignment);
  const auto data_size = static_cast<uint32_t>(b.size()) - data_at;

  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const TensorSpec& t = spec.tensors[i];
    const size_t r = tensors_at + i * abi::tensor_record::kSize;
    uint32_t numel = 1;
    for (uint32_t d : t.dims) numel *= d;
    const uint32_t esize = (t.dtype == 1 || t.dtype == 3) ? 4 : 1;
    b[r + abi::tensor_record::kDtype] = t.dtype;
    b[r + abi::tensor_record::kRank] = static_cast<uint8_t>(t.dims.size());
    b[r + abi::tensor_record::kStorage] = t.constant ? abi::kStorageConstant : abi::kStoragePlanned;
    b[r + abi::tensor_record::kQuant] = t.quant;
    for (size_t d = 0; d < t.dims.size(); ++d)
      put_u32(b, r + abi::tensor_record::kDims + 4 * d, t.dims[d]);
    put_u32(b, r + abi::tensor_record::kNbytes, numel * esize);
    put_u32(b, r + abi::tensor_record::kBuffer, t.constant ? abi::kNoBuffer : t.buffer);
    put_u32(b, r + abi::tensor_record::kOffset, t.constant ? const_at[i] : t.offset);
    uint32_t scale_bits;
    std::memcpy(&scale_bits, &t.scale, 4);
    put_u32(b, r + abi::tensor_record::kScale, scale_bits);
    put_u32(b, r + abi::tensor_record::kZeroPoint, static_cast<uint32_t>(t.zero_point));
    put_u32(b, r + abi::tensor_record::kQuantAxis, t.axis);
    put_u32(b, r + abi::tensor_record::kChannels, static_cast<uint32_t>(t.scales.size()));
    put_u32(b, r + abi::tensor_record::kScalesOffset, scales_at[i]);
    put_u32(b, r + abi::tensor_record::kZeroPointsOffset, zps_at[i]);
  }
  for (size_t i = 0; i < spec.instructions.size(); ++i) {
    const InstructionSpec& ins = spec.instructions[i];
    const size_t r = instructions_at + i * abi::instruction_record::kSize;
    const bool kernel = !ins.name.empty();
    b[r + abi::instruction_record::kKind] =
        kernel ? abi::kInstructionKernel : abi::kInstructionDelegate;
    b[r + abi::instruction_record::kInputCount] = static_cast<uint8_t>(ins.inputs.size());
    b[r + abi::instruction_record::kOutputCount] = static_cast<uint8_t>(ins.outputs.size());
    put_u32(b, r + abi::instruction_record::kNameOffset, name_at[i]);
    put_u32(b, r + abi::instruction_record::kNameLength, static_cast<uint32_t>(ins.name.size()));
    put_u32(b, r + abi::instruction_record::kTensorsOffset, ids_at[i]);
    put_u32(b, r + abi::instruction_record::kArgsOffset, args_at[i]);
    put_u32(b, r + abi::instruction_record::kArgCount, static_cast<uint32_t>(ins.args.size()));
    put_u32(b, r + abi::instruction_record::kDelegateIndex, kernel ? abi::kNoBuffer : ins.delegate);
  }
  for (size_t i = 0; i < spec.delegates.size(); ++i) {
    const size_t r = delegates_at + i * abi::delegate_record::kSize;
    put_u32(b, r + abi::delegate_record::kBackendIdOffset, backend_at[i]);
    put_u32(b, r + abi::delegate_record::kBackendIdLength,
            static_cast<uint32_t>(spec.delegates[i].backend.size()));
    put_u32(b, r + abi::delegate_record::kBlobOffset, blob_at[i]);
    put_u32(b, r + abi::delegate_record::kBlobSize,
            static_cast<uint32_t>(spec.delegates[i].blob.size()));
  }
  put_u32(b, abi::program_header::kFileSize, static_cast<uint32_t>(b.size()));
  put_u32(b, abi::program_header::kTensorsOffset, tensors_at);
  put_u32(b, abi::program_header::kTensorCount, static_cast<uint32_t>(spec.tensors.size()));
  put_u32(b, abi::program_header::kInstructionsOffset, instructions_at);
  put_u32(b, abi::program_header::kInstructionCount,
          static_cast<uint32_t>(spec.instructions.size()));
  put_u32(b, abi::program_header::kBuffersOffset, buffers_at);
  put_u32(b, abi::program_header::kBufferCount, static_cast<uint32_t>(spec.buffers.size()));
  put_u32(b, abi::program_header::kDelegatesOffset, delegates_at);
  put_u32(b, abi::program_header::kDelegateCount, static_cast<uint32_t>(spec.delegates.size()));
  put_u32(b, abi::program_header::kIoOffset, io_at);
  put_u16(b, abi::program_header::kInputCount, static_cast<uint16_t>(spec.inputs.size()));
  put_u16(b, abi::program_header::kOutputCount, static_cast<uint16_t>(spec.outputs.size()));
  put_u32(b, abi::program_header::kDataOffset, data_at);
  put_u32(b, abi::program_header::kDataSize, data_size);
  return b;
}

ProgramSpec add8_program(uint32_t n, bool delegated) {
  ProgramSpec spec;
  const uint32_t slot = (n + 15) / 16 * 16;
  for (uint32_t i = 0; i < 3; ++i) {
    TensorSpec t;
    t.dtype = 2;
    t.dims = {n};
    t.offset = i * slot;
    spec.tensors.push_back(t);
  }
  spec.buffers = {3 * slot};
  spec.inputs = {0, 1};
  spec.outputs = {2};
  InstructionSpec ins;
  ins.inputs = {0, 1};
  ins.outputs = {2};
  if (delegated) {
    std::vector<uint8_t> blob = {'C', 'P', 'K', '1', 1, 0, 0, 0, 1, 0, 0, 0};
    for (int i = 0; i < 4; ++i) blob.push_back(static_cast<uint8_t>(n >> (8 * i)));
    spec.delegates.push_back({"cpu-packed", blob});
  } else {
    ins.name = ops::Add::kName;
  }
  spec.instructions.push_back(ins);
  return spec;
}

AlignedBytes::AlignedBytes(const std::vector<uint8_t>& bytes)
    : storage_((bytes.size() + 15) / 16 + 1), size_(bytes.size()) {
  std::memcpy(data(), bytes.data(), bytes.size());
}

}  // namespace socsim::runtime::test
