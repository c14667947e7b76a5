// A bounds-checked reader of FlatBuffer binaries, for the ExecuTorch program files (.pte).
//
// FlatBuffers' wire format (flatbuffers.dev, "FlatBuffers internals"): little-endian; the
// buffer starts with a u32 offset to the root table; a table starts with an i32 that, taken
// away from the table's position, gives its vtable; a vtable is u16 vtable size, u16 table
// size, then one u16 per field (0: absent, else the field's offset in the table); a field
// that refers to a table, vector or string holds a u32 offset relative to the field itself;
// a vector is a u32 element count followed by the elements; a string is a vector of bytes
// followed by a NUL.
//
// Nothing in the buffer is trusted: every position is checked against the buffer's size
// before it is read, every offset and count is checked for overflow, and reads go through
// memcpy so that no alignment is assumed. Every function that can fail returns an Error
// (kProgramOutOfBounds for a position outside the buffer, kProgramTruncated for a vector or
// string longer than what remains, kProgramBadInstruction/... are the callers'); the caller
// names the field. Freestanding: no heap, no exceptions.
#pragma once

#include <stdint.h>
#include <string.h>

#include "firmware/runtime/error.h"

namespace socsim::runtime::pte {

/// The buffer: `size` bytes at `data`.
struct FbBuffer {
  const uint8_t* data = nullptr;
  uint32_t size = 0;

  /// True when [pos, pos + len) lies inside the buffer (no overflow).
  bool contains(uint32_t pos, uint32_t len) const { return pos <= size && len <= size - pos; }
  template <typename T>
  T read(uint32_t pos) const {  // callers check contains(pos, sizeof(T)) first
    T v;
    memcpy(&v, data + pos, sizeof(T));
    return v;
  }
};

/// A vector's elements: `count` elements of `element_size` bytes from `pos`, all inside the
/// buffer (checked when the vector was read).
class FbVector {
 public:
  FbVector() = default;
  FbVector(const FbBuffer& buffer, uint32_t pos, uint32_t count, uint32_t element_size)
      : buffer_(buffer), pos_(pos), count_(count), element_size_(element_size) {}

  uint32_t size() const { return count_; }
  uint32_t position() const { return pos_; }
  const uint8_t* bytes() const { return buffer_.data != nullptr ? buffer_.data + pos_ : nullptr; }
  template <typename T>
  T at(uint32_t index) const {  // index < size(), sizeof(T) == element size
    return buffer_.read<T>(pos_ + index * element_size_);
  }
  /// The position a u32 offset element `index` refers to (a table or string of a vector of
  /// them); kProgramOutOfBounds when it leaves the buffer.
  Error target(uint32_t index, uint32_t* pos) const;

 private:
  FbBuffer buffer_;  // a copy (two words): views stay valid when their owner moves
  uint32_t pos_ = 0;
  uint32_t count_ = 0;
  uint32_t element_size_ = 1;
};

/// A table whose header and vtable lie inside the buffer.
class FbTable {
 public:
  FbTable() = default;
  /// The table at `pos`: checks the table's start, its vtable and the inline size the vtable
  /// declares.
  static Error at(const FbBuffer& buffer, uint32_t pos, FbTable* table);
  /// The root table (the u32 at offset 0).
  static Error root(const FbBuffer& buffer, FbTable* table);

  bool present() const { return buffer_.data != nullptr; }
  bool has(uint32_t slot) const { return field_offset(slot) != 0; }
  uint32_t position() const { return pos_; }

  /// A scalar field, `fallback` when absent; kProgramOutOfBounds when the field leaves the
  /// table.
  template <typename T>
  Error scalar(uint32_t slot, T fallback, T* value) const {
    const uint32_t off = field_offset(slot);
    if (off == 0) {
      *value = fallback;
      return Error::kOk;
    }
    if (off > inline_size_ || sizeof(T) > inline_size_ - off) return Error::kProgramOutOfBounds;
    *value = buffer_.read<T>(pos_ + off);
    return Error::kOk;
  }
  /// A table field; an absent field gives a table with present() false.
  Error table(uint32_t slot, FbTable* table) const;
  /// A vector field of `element_size`-byte elements; an absent field gives an empty vector.
  Error vector(uint32_t slot, uint32_t element_size, FbVector* vector) const;
  /// A string field (its bytes and length, NUL-terminated in the buffer); absent: nullptr.
  Error string(uint32_t slot, const char** text, uint32_t* length) const;

 private:
  uint32_t field_offset(uint32_t slot) const;
  /// The position a u32 offset field refers to; 0 when absent.
  Error target(uint32_t slot, uint32_t* pos) const;

  FbBuffer buffer_;
  uint32_t pos_ = 0;
  uint32_t vtable_ = 0;
  uint32_t vtable_size_ = 0;
  uint32_t inline_size_ = 0;
};

/// A vector at `pos` (its u32 count first) of `element_size`-byte elements.
Error read_vector(const FbBuffer& buffer, uint32_t pos, uint32_t element_size, FbVector* vector);
/// A string at `pos`: its bytes must be followed by a NUL inside the buffer.
Error read_string(const FbBuffer& buffer, uint32_t pos, const char** text, uint32_t* length);

}  // namespace socsim::runtime::pte
