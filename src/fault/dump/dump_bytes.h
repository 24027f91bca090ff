// Little-endian byte writing and bounds-checked reading for the vendor binary. The writer knows the dump's size
// cap, so a list can stop at the item that would cross it and say how many were cut; the reader never reads past
// its span and turns every overrun into one error naming the field, so a corrupt file cannot crash the decoder.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace crashtest::dump {

// "The vendor binary header ... little-endian": writing host integers byte for byte is only right on a
// little-endian host, which is every host crashtest builds for.
static_assert(std::endian::native == std::endian::little, "the vendor binary is written little-endian");

// Strings longer than this are cut (object names, labels and IR lines are short; a path could be long).
inline constexpr uint32_t kMaxStringBytes = 4096;

class ByteWriter {
 public:
  explicit ByteWriter(size_t cap = SIZE_MAX) : cap_(cap) {}
  size_t size() const { return bytes_.size(); }
  bool OverCap() const { return bytes_.size() > cap_; }
  void U8(uint8_t v) { Raw(&v, 1); }
  void U32(uint32_t v) { Raw(&v, sizeof(v)); }
  void U64(uint64_t v) { Raw(&v, sizeof(v)); }
  void Raw(const void* data, size_t n) {
    const auto* p = static_cast<const std::byte*>(data);
    bytes_.insert(bytes_.end(), p, p + n);
  }
  // u32 length, then the UTF-8 bytes (no terminator).
  void String(std::string_view text) {
    const size_t n = std::min<size_t>(text.size(), kMaxStringBytes);
    U32(static_cast<uint32_t>(n));
    Raw(text.data(), n);
  }
  // A fixed-size, NUL-padded text field (always NUL-terminated).
  void Text(const char* text, size_t field) {
    size_t n = std::min(std::strlen(text), field - 1);
    Raw(text, n);
    bytes_.resize(bytes_.size() + field - n, std::byte{0});
  }
  void CString(const std::string& text) { Raw(text.c_str(), text.size() + 1); }
  void Align(size_t alignment) { bytes_.resize((bytes_.size() + alignment - 1) / alignment * alignment, std::byte{0}); }
  void PatchU32(size_t offset, uint32_t v) { std::memcpy(bytes_.data() + offset, &v, sizeof(v)); }
  void PatchU64(size_t offset, uint64_t v) { std::memcpy(bytes_.data() + offset, &v, sizeof(v)); }
  void Truncate(size_t size) { bytes_.resize(size); }
  std::vector<std::byte> Take() { return std::move(bytes_); }

  // Writes `count` items as: u32 written, u32 omitted, then the items; stops before the first item that would
  // take the dump past its cap. Returns how many were written.
  template <typename WriteItem>
  uint32_t List(size_t count, WriteItem&& writeItem) {
    const size_t countField = size();
    U32(0);
    U32(0);
    uint32_t written = 0;
    for (size_t i = 0; i < count; ++i) {
      const size_t mark = size();
      writeItem(i);
      if (OverCap()) {
        Truncate(mark);
        break;
      }
      ++written;
    }
    PatchU32(countField, written);
    PatchU32(countField + 4, static_cast<uint32_t>(count - written));
    return written;
  }

 private:
  size_t cap_;
  std::vector<std::byte> bytes_;
};

// Reads fields in order; the first read past the end records what was being read and every later read returns
// zeroes, so a decoder checks ok() once per section.
class ByteReader {
 public:
  ByteReader(const std::byte* data, size_t size) : data_(data), size_(size) {}
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  size_t offset() const { return offset_; }
  size_t remaining() const { return size_ - offset_; }
  void Fail(const std::string& what) {
    if (error_.empty()) error_ = what;
    offset_ = size_;
  }
  uint8_t U8(const char* what) { uint8_t v = 0; Read(&v, 1, what); return v; }
  uint32_t U32(const char* what) { uint32_t v = 0; Read(&v, 4, what); return v; }
  uint64_t U64(const char* what) { uint64_t v = 0; Read(&v, 8, what); return v; }
  std::string String(const char* what) {
    const uint32_t n = U32(what);
    if (!ok()) return {};
    if (n > kMaxStringBytes || n > remaining()) {
      Fail(std::string(what) + ": a string of " + std::to_string(n) + " bytes does not fit");
      return {};
    }
    std::string s(reinterpret_cast<const char*>(data_ + offset_), n);
    offset_ += n;
    return s;
  }
  // A fixed-size, NUL-padded text field.
  std::string Text(size_t field, const char* what) {
    if (field > remaining()) {
      Fail(std::string(what) + ": truncated");
      return {};
    }
    const char* p = reinterpret_cast<const char*>(data_ + offset_);
    offset_ += field;
    return std::string(p, strnlen(p, field));
  }
  void Skip(size_t n, const char* what) {
    if (n > remaining()) Fail(std::string(what) + ": truncated");
    else offset_ += n;
  }
  // The header of a List: the count, checked against what the bytes left could hold (each item takes at least
  // `minItemSize` bytes), so a corrupt count cannot make the decoder allocate or loop without bound.
  uint32_t ListCount(size_t minItemSize, const char* what, uint32_t* omitted) {
    const uint32_t count = U32(what);
    *omitted = U32(what);
    if (ok() && minItemSize != 0 && count > remaining() / minItemSize) {
      Fail(std::string(what) + ": " + std::to_string(count) + " items cannot fit in the " +
           std::to_string(remaining()) + " bytes left");
      return 0;
    }
    return ok() ? count : 0;
  }

 private:
  void Read(void* out, size_t n, const char* what) {
    if (n > remaining()) {
      Fail(std::string(what) + ": truncated");
      return;
    }
    std::memcpy(out, data_ + offset_, n);
    offset_ += n;
  }

  const std::byte* data_;
  size_t size_;
  size_t offset_ = 0;
  std::string error_;
};

}  // namespace crashtest::dump
