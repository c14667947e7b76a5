// Program file writer for tests; layout as in docs/program-format.md.
#include "firmware/runtime/test/program_builder.h"

#include <cstring>

#include "firmware/runtime/program_format.h"

namespace socsim::runtime::test {
namespace {

namespace fmt = format;

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
  std::vector<uint8_t> b(fmt::kHeaderSize, 0);
  std::memcpy(b.data(), fmt::kMagic, 4);
  put_u16(b, fmt::kHdrVersionMajor, fmt::kVersionMajor);
  put_u16(b, fmt::kHdrVersionMinor, fmt::kVersionMinor);

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
  b.resize(b.size() + spec.tensors.size() * fmt::kTensorRecordSize, 0);
  const auto instructions_at = static_cast<uint32_t>(b.size());
  b.resize(b.size() + spec.instructions.size() * fmt::kInstructionRecordSize, 0);
  const auto delegates_at = static_cast<uint32_t>(b.size());
  b.resize(b.size() + spec.delegates.size() * fmt::kDelegateRecordSize, 0);

  std::vector<uint32_t> blob_at;
  for (const auto& d : spec.delegates)
    blob_at.push_back(append(b, d.blob.data(), d.blob.size(), 16));
  align(b, fmt::kDataAlignment);
  const auto data_at = static_cast<uint32_t>(b.size());
  std::vector<uint32_t> const_at;
  for (const auto& t : spec.tensors) {
    const_at.push_back(t.constant ? append(b, t.data.data(), t.data.size(), 16) - data_at : 0);
  }
  align(b, fmt::kDataAlignment);
  const auto data_size = static_cast<uint32_t>(b.size()) - data_at;

  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const TensorSpec& t = spec.tensors[i];
    const size_t r = tensors_at + i * fmt::kTensorRecordSize;
    uint32_t numel = 1;
    for (uint32_t d : t.dims) numel *= d;
    const uint32_t esize = (t.dtype == 1 || t.dtype == 3) ? 4 : 1;
    b[r + fmt::kTenDtype] = t.dtype;
    b[r + fmt::kTenRank] = static_cast<uint8_t>(t.dims.size());
    b[r + fmt::kTenStorage] = t.constant ? fmt::kStorageConstant : fmt::kStoragePlanned;
    b[r + fmt::kTenQuantKind] = t.quant;
    for (size_t d = 0; d < t.dims.size(); ++d) put_u32(b, r + fmt::kTenDims + 4 * d, t.dims[d]);
    put_u32(b, r + fmt::kTenNbytes, numel * esize);
    put_u32(b, r + fmt::kTenBuffer, t.constant ? fmt::kNoBuffer : t.buffer);
    put_u32(b, r + fmt::kTenOffset, t.constant ? const_at[i] : t.offset);
    uint32_t scale_bits;
    std::memcpy(&scale_bits, &t.scale, 4);
    put_u32(b, r + fmt::kTenScale, scale_bits);
    put_u32(b, r + fmt::kTenZeroPoint, static_cast<uint32_t>(t.zero_point));
    put_u32(b, r + fmt::kTenQuantAxis, t.axis);
    put_u32(b, r + fmt::kTenChannels, static_cast<uint32_t>(t.scales.size()));
    put_u32(b, r + fmt::kTenScalesOffset, scales_at[i]);
    put_u32(b, r + fmt::kTenZeroPointsOffset, zps_at[i]);
  }
  for (size_t i = 0; i < spec.instructions.size(); ++i) {
    const InstructionSpec& ins = spec.instructions[i];
    const size_t r = instructions_at + i * fmt::kInstructionRecordSize;
    const bool kernel = !ins.name.empty();
    b[r + fmt::kInsKind] = kernel ? fmt::kInstructionKernel : fmt::kInstructionDelegate;
    b[r + fmt::kInsInputCount] = static_cast<uint8_t>(ins.inputs.size());
    b[r + fmt::kInsOutputCount] = static_cast<uint8_t>(ins.outputs.size());
    put_u32(b, r + fmt::kInsNameOffset, name_at[i]);
    put_u32(b, r + fmt::kInsNameLength, static_cast<uint32_t>(ins.name.size()));
    put_u32(b, r + fmt::kInsTensorsOffset, ids_at[i]);
    put_u32(b, r + fmt::kInsArgsOffset, args_at[i]);
    put_u32(b, r + fmt::kInsArgCount, static_cast<uint32_t>(ins.args.size()));
    put_u32(b, r + fmt::kInsDelegateIndex, kernel ? fmt::kNoBuffer : ins.delegate);
  }
  for (size_t i = 0; i < spec.delegates.size(); ++i) {
    const size_t r = delegates_at + i * fmt::kDelegateRecordSize;
    put_u32(b, r + fmt::kDelIdOffset, backend_at[i]);
    put_u32(b, r + fmt::kDelIdLength, static_cast<uint32_t>(spec.delegates[i].backend.size()));
    put_u32(b, r + fmt::kDelBlobOffset, blob_at[i]);
    put_u32(b, r + fmt::kDelBlobSize, static_cast<uint32_t>(spec.delegates[i].blob.size()));
  }
  put_u32(b, fmt::kHdrFileSize, static_cast<uint32_t>(b.size()));
  put_u32(b, fmt::kHdrTensorsOffset, tensors_at);
  put_u32(b, fmt::kHdrTensorCount, static_cast<uint32_t>(spec.tensors.size()));
  put_u32(b, fmt::kHdrInstructionsOffset, instructions_at);
  put_u32(b, fmt::kHdrInstructionCount, static_cast<uint32_t>(spec.instructions.size()));
  put_u32(b, fmt::kHdrBuffersOffset, buffers_at);
  put_u32(b, fmt::kHdrBufferCount, static_cast<uint32_t>(spec.buffers.size()));
  put_u32(b, fmt::kHdrDelegatesOffset, delegates_at);
  put_u32(b, fmt::kHdrDelegateCount, static_cast<uint32_t>(spec.delegates.size()));
  put_u32(b, fmt::kHdrIoOffset, io_at);
  put_u16(b, fmt::kHdrInputCount, static_cast<uint16_t>(spec.inputs.size()));
  put_u16(b, fmt::kHdrOutputCount, static_cast<uint16_t>(spec.outputs.size()));
  put_u32(b, fmt::kHdrDataOffset, data_at);
  put_u32(b, fmt::kHdrDataSize, data_size);
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
    ins.name = "add";
  }
  spec.instructions.push_back(ins);
  return spec;
}

AlignedBytes::AlignedBytes(const std::vector<uint8_t>& bytes)
    : storage_((bytes.size() + 15) / 16 + 1), size_(bytes.size()) {
  std::memcpy(data(), bytes.data(), bytes.size());
}

}  // namespace socsim::runtime::test
