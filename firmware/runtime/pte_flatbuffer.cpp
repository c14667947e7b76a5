// The checked FlatBuffer reader of the .pte loader (pte_flatbuffer.h).
#include "firmware/runtime/pte_flatbuffer.h"

namespace socsim::runtime::pte {

namespace {

/// pos + offset: a forward offset that stays inside the buffer (0, which would point at the
/// offset itself, and anything at or past the end give kProgramOutOfBounds).
Error advance(const FbBuffer& buffer, uint32_t pos, uint32_t offset, uint32_t* out) {
  if (pos >= buffer.size || offset == 0 || offset >= buffer.size - pos) {
    return Error::kProgramOutOfBounds;
  }
  *out = pos + offset;
  return Error::kOk;
}

}  // namespace

Error read_vector(const FbBuffer& buffer, uint32_t pos, uint32_t element_size, FbVector* vector) {
  if (!buffer.contains(pos, 4)) return Error::kProgramOutOfBounds;
  const uint32_t count = buffer.read<uint32_t>(pos);
  const uint32_t room = buffer.size - pos - 4;
  if (element_size != 0 && count > room / element_size) return Error::kProgramTruncated;
  *vector = FbVector(buffer, pos + 4, count, element_size);
  return Error::kOk;
}

Error read_string(const FbBuffer& buffer, uint32_t pos, const char** text, uint32_t* length) {
  FbVector bytes;
  SOCSIM_RT_TRY(read_vector(buffer, pos, 1, &bytes));
  // the NUL after the bytes must be inside the buffer too
  if (!buffer.contains(bytes.position(), bytes.size() + 1u) || bytes.size() == 0xFFFFFFFFu) {
    return Error::kProgramTruncated;
  }
  if (buffer.data[bytes.position() + bytes.size()] != 0) return Error::kProgramTruncated;
  *text = reinterpret_cast<const char*>(bytes.bytes());
  *length = bytes.size();
  return Error::kOk;
}

Error FbVector::target(uint32_t index, uint32_t* pos) const {
  const uint32_t at = pos_ + index * 4;
  return advance(buffer_, at, buffer_.read<uint32_t>(at), pos);
}

Error FbTable::at(const FbBuffer& buffer, uint32_t pos, FbTable* table) {
  if (!buffer.contains(pos, 4) || pos % 4 != 0) return Error::kProgramOutOfBounds;
  const int32_t back = buffer.read<int32_t>(pos);
  // vtable = pos - back, inside the buffer
  const int64_t vtable = static_cast<int64_t>(pos) - back;
  if (vtable < 0 || vtable > static_cast<int64_t>(buffer.size) - 4) {
    return Error::kProgramOutOfBounds;
  }
  const uint32_t vt = static_cast<uint32_t>(vtable);
  const uint32_t vt_size = buffer.read<uint16_t>(vt);
  const uint32_t inline_size = buffer.read<uint16_t>(vt + 2);
  if (vt_size < 4 || vt_size % 2 != 0 || !buffer.contains(vt, vt_size)) {
    return Error::kProgramOutOfBounds;
  }
  if (inline_size < 4 || !buffer.contains(pos, inline_size)) return Error::kProgramOutOfBounds;
  table->buffer_ = buffer;
  table->pos_ = pos;
  table->vtable_ = vt;
  table->vtable_size_ = vt_size;
  table->inline_size_ = inline_size;
  return Error::kOk;
}

Error FbTable::root(const FbBuffer& buffer, FbTable* table) {
  if (!buffer.contains(0, 8)) return Error::kProgramTruncated;
  return at(buffer, buffer.read<uint32_t>(0), table);
}

uint32_t FbTable::field_offset(uint32_t slot) const {
  if (buffer_.data == nullptr || slot >= (vtable_size_ - 4) / 2) return 0;
  return buffer_.read<uint16_t>(vtable_ + 4 + 2 * slot);
}

Error FbTable::target(uint32_t slot, uint32_t* pos) const {
  const uint32_t off = field_offset(slot);
  *pos = 0;
  if (off == 0) return Error::kOk;
  if (off > inline_size_ || inline_size_ - off < 4) return Error::kProgramOutOfBounds;
  const uint32_t at = pos_ + off;
  return advance(buffer_, at, buffer_.read<uint32_t>(at), pos);
}

Error FbTable::table(uint32_t slot, FbTable* table) const {
  uint32_t pos = 0;
  SOCSIM_RT_TRY(target(slot, &pos));
  *table = FbTable();
  if (pos == 0) return Error::kOk;
  return at(buffer_, pos, table);
}

Error FbTable::vector(uint32_t slot, uint32_t element_size, FbVector* vector) const {
  uint32_t pos = 0;
  SOCSIM_RT_TRY(target(slot, &pos));
  *vector = FbVector();
  if (pos == 0) return Error::kOk;
  return read_vector(buffer_, pos, element_size, vector);
}

Error FbTable::string(uint32_t slot, const char** text, uint32_t* length) const {
  uint32_t pos = 0;
  SOCSIM_RT_TRY(target(slot, &pos));
  *text = nullptr;
  *length = 0;
  if (pos == 0) return Error::kOk;
  return read_string(buffer_, pos, text, length);
}

}  // namespace socsim::runtime::pte
