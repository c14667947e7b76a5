// The .pte file reader: header, extended header, segments, constants, the execution plan.
#include "firmware/runtime/pte_program.h"

#include <string.h>

namespace socsim::runtime {

using pte::FbBuffer;
using pte::FbTable;
using pte::FbVector;

namespace {

constexpr uint32_t kIdentifierOffset = 4;
constexpr uint32_t kExtendedHeaderOffset = 8;
/// "eh00", u32 header length, u64 program size, u64 segment base offset, u64 segment data
/// size: the fields this reader knows (a longer header is accepted, a shorter one is not).
constexpr uint32_t kExtendedHeaderMinLength = 32;

uint64_t read_u64(const uint8_t* p) {
  uint64_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}

}  // namespace

uint32_t pte_element_size(int8_t type) {
  switch (static_cast<PteScalarType>(type)) {
    case PteScalarType::kByte:
    case PteScalarType::kChar:
    case PteScalarType::kBool:
      return 1;
    case PteScalarType::kShort:
    case PteScalarType::kHalf:
      return 2;
    case PteScalarType::kInt:
    case PteScalarType::kFloat:
      return 4;
    case PteScalarType::kLong:
    case PteScalarType::kDouble:
      return 8;
  }
  return 0;
}

const char* pte_type_name(int8_t type) {
  switch (static_cast<PteScalarType>(type)) {
    case PteScalarType::kByte:
      return "uint8";
    case PteScalarType::kChar:
      return "int8";
    case PteScalarType::kShort:
      return "int16";
    case PteScalarType::kInt:
      return "int32";
    case PteScalarType::kLong:
      return "int64";
    case PteScalarType::kHalf:
      return "float16";
    case PteScalarType::kFloat:
      return "float32";
    case PteScalarType::kDouble:
      return "float64";
    case PteScalarType::kBool:
      return "bool";
  }
  return "unknown";
}

bool PteProgram::has_identifier(const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  return p != nullptr && size >= 8 && p[kIdentifierOffset] == 'E' &&
         p[kIdentifierOffset + 1] == 'T' && p[kIdentifierOffset + 2] >= '0' &&
         p[kIdentifierOffset + 2] <= '9' && p[kIdentifierOffset + 3] >= '0' &&
         p[kIdentifierOffset + 3] <= '9';
}

Result<PteProgram> PteProgram::load(const void* data, size_t size, PteDiagnostics* diag) {
  using namespace pte_slot;
  if (data == nullptr) return Error::kInvalidArgument;
  if (size < 8) return pte_fail(diag, Error::kProgramTruncated, "file header");
  if (size > 0x7FFFFFFFu) return pte_fail(diag, Error::kNotSupported, "file size");
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (!has_identifier(bytes, size)) {
    return pte_fail(diag, Error::kProgramBadMagic, "file identifier");
  }
  if (memcmp(bytes + kIdentifierOffset, "ET12", 4) != 0) {
    return pte_fail(diag, Error::kProgramBadVersion, "file identifier");
  }
  PteProgram p;
  p.file_ = FbBuffer{bytes, static_cast<uint32_t>(size)};
  p.flat_ = p.file_;
  SOCSIM_RT_TRY(p.read_extended_header(diag));
  Error e = FbTable::root(p.flat_, &p.root_);
  if (e != Error::kOk) return pte_fail(diag, e, "root table");
  uint32_t version = 0;
  e = p.root_.scalar<uint32_t>(kProgramVersion, 0, &version);
  if (e != Error::kOk) return pte_fail(diag, e, "Program.version");
  if (version != 0) return pte_fail(diag, Error::kProgramBadVersion, "Program.version");
  SOCSIM_RT_TRY(p.read_segments(diag));
  SOCSIM_RT_TRY(p.read_constant_segment(diag));
  SOCSIM_RT_TRY(p.read_plan(diag));
  e = p.verify_rest(diag);
  if (e != Error::kOk) return e;
  for (uint32_t i = 0; i < p.buffer_sizes_.size(); ++i) {
    const int64_t bytes_needed = p.buffer_sizes_.at<int64_t>(i);
    if (bytes_needed < 0 || bytes_needed > 0x7FFFFFFF) {
      return pte_fail(diag, Error::kNotSupported, "ExecutionPlan.non_const_buffer_sizes", i);
    }
  }
  return move_from(p);
}

/// The extended header, present when the file has segments: the flatbuffer's size and where
/// the segment data lies.
Error PteProgram::read_extended_header(PteDiagnostics* diag) {
  const uint8_t* bytes = file_.data;
  const uint32_t size = file_.size;
  if (size < kExtendedHeaderOffset + 8 || memcmp(bytes + kExtendedHeaderOffset, "eh00", 4) != 0) {
    return Error::kOk;
  }
  uint32_t length;
  memcpy(&length, bytes + kExtendedHeaderOffset + 4, 4);
  if (length < kExtendedHeaderMinLength || length > size - kExtendedHeaderOffset) {
    return pte_fail(diag, Error::kProgramTruncated, "extended header length");
  }
  const uint64_t program_size = read_u64(bytes + kExtendedHeaderOffset + 8);
  segment_base_ = read_u64(bytes + kExtendedHeaderOffset + 16);
  segment_data_size_ = read_u64(bytes + kExtendedHeaderOffset + 24);
  if (program_size < kExtendedHeaderOffset + length || program_size > size) {
    return pte_fail(diag, Error::kProgramOutOfBounds, "extended header program_size");
  }
  if (segment_base_ < program_size || segment_base_ > size) {
    return pte_fail(diag, Error::kProgramOutOfBounds, "extended header segment_base_offset");
  }
  if (segment_data_size_ > size - segment_base_) {
    return pte_fail(diag, Error::kProgramTruncated, "extended header segment_data_size");
  }
  flat_.size = static_cast<uint32_t>(program_size);
  return Error::kOk;
}

/// Segments: each must lie inside the segment data (none without an extended header, where
/// only empty segments are possible); then the constant buffer and delegate data vectors.
Error PteProgram::read_segments(PteDiagnostics* diag) {
  using namespace pte_slot;
  Error e = root_.vector(kProgramSegments, 4, &segments_);
  if (e != Error::kOk) return pte_fail(diag, e, "Program.segments");
  for (uint32_t i = 0; i < segments_.size(); ++i) {
    uint32_t pos = 0;
    FbTable seg;
    e = segments_.target(i, &pos);
    if (e == Error::kOk) e = FbTable::at(flat_, pos, &seg);
    uint64_t offset = 0, length = 0;
    if (e == Error::kOk) e = seg.scalar<uint64_t>(kSegmentOffset, 0, &offset);
    if (e == Error::kOk) e = seg.scalar<uint64_t>(kSegmentSize, 0, &length);
    if (e != Error::kOk) return pte_fail(diag, e, "Program.segments", i);
    if (offset > segment_data_size_ || length > segment_data_size_ - offset) {
      return pte_fail(diag, Error::kProgramOutOfBounds, "DataSegment.offset/size", i);
    }
  }
  e = root_.vector(kProgramConstantBuffer, 4, &constant_buffer_);
  if (e != Error::kOk) return pte_fail(diag, e, "Program.constant_buffer");
  e = root_.vector(kProgramDelegateData, 4, &delegate_data_);
  if (e != Error::kOk) return pte_fail(diag, e, "Program.backend_delegate_data");
  return Error::kOk;
}

/// The constant segment and its offsets table, each offset inside the segment.
Error PteProgram::read_constant_segment(PteDiagnostics* diag) {
  using namespace pte_slot;
  FbTable constants;
  Error e = root_.table(kProgramConstantSegment, &constants);
  if (e != Error::kOk) return pte_fail(diag, e, "Program.constant_segment");
  if (!constants.present()) return Error::kOk;
  uint32_t index = 0;
  e = constants.scalar<uint32_t>(kSubsegmentIndex, 0, &index);
  if (e == Error::kOk) e = constants.vector(kSubsegmentOffsets, 8, &constant_offsets_);
  if (e != Error::kOk) return pte_fail(diag, e, "Program.constant_segment");
  if (constant_offsets_.size() == 0) return Error::kOk;
  if (index >= segments_.size()) {
    return pte_fail(diag, Error::kProgramOutOfBounds, "SubsegmentOffsets.segment_index");
  }
  constant_segment_ = index;
  const uint8_t* seg = nullptr;
  uint32_t seg_size = 0;
  SOCSIM_RT_TRY(segment(index, &seg, &seg_size));
  for (uint32_t i = 0; i < constant_offsets_.size(); ++i) {
    if (constant_offsets_.at<uint64_t>(i) > seg_size) {
      return pte_fail(diag, Error::kProgramOutOfBounds, "SubsegmentOffsets.offsets", i);
    }
  }
  return Error::kOk;
}

/// The first execution plan ("forward") and its vectors.
Error PteProgram::read_plan(PteDiagnostics* diag) {
  using namespace pte_slot;
  FbVector plans;
  Error e = root_.vector(kProgramPlans, 4, &plans);
  if (e != Error::kOk) return pte_fail(diag, e, "Program.execution_plan");
  if (plans.size() == 0) return pte_fail(diag, Error::kNotFound, "Program.execution_plan");
  uint32_t pos = 0;
  e = plans.target(0, &pos);
  if (e == Error::kOk) e = FbTable::at(flat_, pos, &plan_);
  if (e != Error::kOk) return pte_fail(diag, e, "Program.execution_plan", 0);
  struct {
    uint32_t slot;
    uint32_t element_size;
    FbVector* vector;
    const char* field;
  } const tables[] = {
      {kPlanValues, 4, &values_, "ExecutionPlan.values"},
      {kPlanInputs, 4, &inputs_, "ExecutionPlan.inputs"},
      {kPlanOutputs, 4, &outputs_, "ExecutionPlan.outputs"},
      {kPlanChains, 4, &chains_, "ExecutionPlan.chains"},
      {kPlanOperators, 4, &operators_, "ExecutionPlan.operators"},
      {kPlanDelegates, 4, &delegates_, "ExecutionPlan.delegates"},
      {kPlanBufferSizes, 8, &buffer_sizes_, "ExecutionPlan.non_const_buffer_sizes"},
  };
  for (const auto& t : tables) {
    e = plan_.vector(t.slot, t.element_size, t.vector);
    if (e != Error::kOk) return pte_fail(diag, e, t.field);
  }
  return Error::kOk;
}

namespace {

/// Checks a vector of `count` tables in `vector`, each with strings at `string_slots`.
Error verify_tables(const FbBuffer& flat, const FbVector& vector, const uint32_t* string_slots,
                    uint32_t string_count) {
  for (uint32_t i = 0; i < vector.size(); ++i) {
    uint32_t pos = 0;
    FbTable t;
    SOCSIM_RT_TRY(vector.target(i, &pos));
    SOCSIM_RT_TRY(FbTable::at(flat, pos, &t));
    for (uint32_t k = 0; k < string_count; ++k) {
      const char* text = nullptr;
      uint32_t length = 0;
      SOCSIM_RT_TRY(t.string(string_slots[k], &text, &length));
    }
  }
  return Error::kOk;
}

}  // namespace

Error PteProgram::verify_rest(PteDiagnostics* diag) const {
  // The fields the runtime does not use are checked too (as a FlatBuffer verifier would):
  // a file whose tables or strings leave the buffer is refused whatever they hold.
  const char* text = nullptr;
  uint32_t length = 0;
  Error e = plan_.string(0, &text, &length);
  if (e != Error::kOk) return pte_fail(diag, e, "ExecutionPlan.name");
  FbTable meta;
  e = plan_.table(1, &meta);
  if (e == Error::kOk && meta.present()) e = meta.string(0, &text, &length);
  if (e == Error::kOk && meta.present()) e = meta.string(1, &text, &length);
  if (e != Error::kOk) return pte_fail(diag, e, "ExecutionPlan.container_meta_type");
  FbVector devices;
  e = plan_.vector(9, 4, &devices);
  if (e == Error::kOk) e = verify_tables(flat_, devices, nullptr, 0);
  if (e != Error::kOk) return pte_fail(diag, e, "ExecutionPlan.non_const_buffer_device");
  const uint32_t operator_strings[] = {pte_slot::kOperatorName, pte_slot::kOperatorOverload};
  e = verify_tables(flat_, operators_, operator_strings, 2);
  if (e != Error::kOk) return pte_fail(diag, e, "ExecutionPlan.operators");
  for (uint32_t c = 0; c < chains_.size(); ++c) {
    uint32_t pos = 0;
    FbTable chain;
    FbVector inputs, outputs, trace;
    e = chains_.target(c, &pos);
    if (e == Error::kOk) e = FbTable::at(flat_, pos, &chain);
    if (e == Error::kOk) e = chain.vector(0, 4, &inputs);
    if (e == Error::kOk) e = chain.vector(1, 4, &outputs);
    if (e == Error::kOk) e = chain.vector(3, 4, &trace);
    for (uint32_t f = 0; e == Error::kOk && f < trace.size(); ++f) {
      FbTable frames;
      FbVector items;
      e = trace.target(f, &pos);
      if (e == Error::kOk) e = FbTable::at(flat_, pos, &frames);
      if (e == Error::kOk) e = frames.vector(0, 4, &items);
      const uint32_t frame_strings[] = {0, 2, 3};  // filename, name, context
      if (e == Error::kOk) e = verify_tables(flat_, items, frame_strings, 3);
    }
    if (e != Error::kOk) return pte_fail(diag, e, "Chain", c);
  }
  FbVector mutable_segments, named;
  e = root_.vector(6, 4, &mutable_segments);
  for (uint32_t i = 0; e == Error::kOk && i < mutable_segments.size(); ++i) {
    uint32_t pos = 0;
    FbTable t;
    FbVector offsets;
    e = mutable_segments.target(i, &pos);
    if (e == Error::kOk) e = FbTable::at(flat_, pos, &t);
    if (e == Error::kOk) e = t.vector(pte_slot::kSubsegmentOffsets, 8, &offsets);
  }
  if (e != Error::kOk) return pte_fail(diag, e, "Program.mutable_data_segments");
  const uint32_t named_strings[] = {0};
  e = root_.vector(7, 4, &named);
  if (e == Error::kOk) e = verify_tables(flat_, named, named_strings, 1);
  if (e != Error::kOk) return pte_fail(diag, e, "Program.named_data");
  return Error::kOk;
}

uint32_t PteProgram::memory_planned_buffer_size(uint32_t index) const {
  if (index + 1 >= buffer_sizes_.size()) return 0;
  return static_cast<uint32_t>(buffer_sizes_.at<int64_t>(index + 1));
}

Error PteProgram::segment(uint32_t index, const uint8_t** data, uint32_t* size) const {
  using namespace pte_slot;
  if (index >= segments_.size()) return Error::kProgramOutOfBounds;
  uint32_t pos = 0;
  FbTable seg;
  SOCSIM_RT_TRY(segments_.target(index, &pos));
  SOCSIM_RT_TRY(FbTable::at(flat_, pos, &seg));
  uint64_t offset = 0, length = 0;
  SOCSIM_RT_TRY(seg.scalar<uint64_t>(kSegmentOffset, 0, &offset));
  SOCSIM_RT_TRY(seg.scalar<uint64_t>(kSegmentSize, 0, &length));
  if (offset > segment_data_size_ || length > segment_data_size_ - offset) {
    return Error::kProgramOutOfBounds;
  }
  *data = file_.data + segment_base_ + offset;
  *size = static_cast<uint32_t>(length);
  return Error::kOk;
}

Error PteProgram::constant_data(uint32_t index, uint32_t nbytes, const uint8_t** data) const {
  if (constant_segment_ != 0xFFFFFFFFu) {
    // Entry 0 of the offsets table is a placeholder: index 0 means "no constant data".
    if (index == 0 || index >= constant_offsets_.size()) return Error::kProgramOutOfBounds;
    const uint8_t* seg = nullptr;
    uint32_t seg_size = 0;
    SOCSIM_RT_TRY(segment(constant_segment_, &seg, &seg_size));
    const uint64_t start = constant_offsets_.at<uint64_t>(index);
    const uint64_t end =
        index + 1 < constant_offsets_.size() ? constant_offsets_.at<uint64_t>(index + 1) : seg_size;
    if (start > seg_size || end > seg_size || end < start || nbytes > end - start) {
      return Error::kProgramOutOfBounds;
    }
    *data = seg + start;
    return Error::kOk;
  }
  // Older files: the inline constant_buffer table (entry 0 likewise reserved).
  if (index == 0 || index >= constant_buffer_.size()) return Error::kProgramOutOfBounds;
  uint32_t pos = 0;
  FbTable buffer;
  FbVector storage;
  SOCSIM_RT_TRY(constant_buffer_.target(index, &pos));
  SOCSIM_RT_TRY(FbTable::at(flat_, pos, &buffer));
  SOCSIM_RT_TRY(buffer.vector(pte_slot::kBytesData, 1, &storage));
  if (nbytes > storage.size()) return Error::kProgramOutOfBounds;
  *data = storage.bytes();
  return Error::kOk;
}

Error PteProgram::inline_delegate_data(uint32_t index, const uint8_t** data, uint32_t* size) const {
  if (index >= delegate_data_.size()) return Error::kProgramOutOfBounds;
  uint32_t pos = 0;
  FbTable entry;
  FbVector bytes;
  SOCSIM_RT_TRY(delegate_data_.target(index, &pos));
  SOCSIM_RT_TRY(FbTable::at(flat_, pos, &entry));
  SOCSIM_RT_TRY(entry.vector(pte_slot::kBytesData, 1, &bytes));
  *data = bytes.bytes();
  *size = bytes.size();
  return Error::kOk;
}

Error PteProgram::named_segment(const char* key, const uint8_t** data, uint32_t* size) const {
  *data = nullptr;
  *size = 0;
  FbVector named;
  SOCSIM_RT_TRY(root_.vector(7, 4, &named));  // Program.named_data
  const size_t key_length = strlen(key);
  for (uint32_t i = 0; i < named.size(); ++i) {
    uint32_t pos = 0;
    FbTable entry;
    const char* text = nullptr;
    uint32_t length = 0, index = 0;
    SOCSIM_RT_TRY(named.target(i, &pos));
    SOCSIM_RT_TRY(FbTable::at(flat_, pos, &entry));
    SOCSIM_RT_TRY(entry.string(0, &text, &length));
    if (text == nullptr || length != key_length || memcmp(text, key, length) != 0) continue;
    SOCSIM_RT_TRY(entry.scalar<uint32_t>(1, 0, &index));  // NamedData.segment_index
    return segment(index, data, size);
  }
  return Error::kOk;
}

}  // namespace socsim::runtime
