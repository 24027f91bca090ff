#include "pipeline/pipeline_cache_data.h"

#include <cstring>

namespace crashtest::pipeline {

static_assert(sizeof(VkPipelineCacheHeaderVersionOne) == kCacheHeaderBytes);

namespace {

size_t EntryBytes(const CacheDataEntry& entry) { return kCacheEntryHeaderBytes + entry.spirv->size() * 4; }

template <typename T>
void Put(std::byte*& cursor, const T& value) {
  std::memcpy(cursor, &value, sizeof(T));
  cursor += sizeof(T);
}

// Bounds-checked reads over untrusted bytes.
class Reader {
 public:
  Reader(const std::byte* data, size_t size) : data_(data), size_(size) {}
  template <typename T>
  bool Get(T* value) {
    if (size_ - offset_ < sizeof(T)) return false;
    std::memcpy(value, data_ + offset_, sizeof(T));
    offset_ += sizeof(T);
    return true;
  }
  const std::byte* Take(size_t bytes) {
    if (size_ - offset_ < bytes) return nullptr;
    const std::byte* at = data_ + offset_;
    offset_ += bytes;
    return at;
  }
  size_t remaining() const { return size_ - offset_; }
  size_t offset() const { return offset_; }

 private:
  const std::byte* data_;
  size_t size_;
  size_t offset_ = 0;
};

std::string Hex(const uint8_t* bytes, size_t count) {
  static const char digits[] = "0123456789abcdef";
  std::string text;
  for (size_t i = 0; i < count; ++i) text += digits[bytes[i] >> 4], text += digits[bytes[i] & 15];
  return text;
}

bool Fail(std::string* reason, std::string text) {
  *reason = std::move(text);
  return false;
}

}  // namespace

size_t CacheDataSize(std::span<const CacheDataEntry> entries) {
  if (entries.empty()) return kCacheHeaderBytes;
  size_t size = kCacheHeaderBytes + kCachePayloadHeaderBytes;
  for (const CacheDataEntry& entry : entries) size += EntryBytes(entry);
  return size;
}

size_t WriteCacheData(const CacheIdentity& identity, std::span<const CacheDataEntry> entries, void* out,
                      size_t capacity) {
  if (capacity < kCacheHeaderBytes) return 0;
  VkPipelineCacheHeaderVersionOne header{};
  header.headerSize = kCacheHeaderBytes;
  header.headerVersion = VK_PIPELINE_CACHE_HEADER_VERSION_ONE;
  header.vendorID = identity.vendorID;
  header.deviceID = identity.deviceID;
  std::memcpy(header.pipelineCacheUUID, identity.uuid, VK_UUID_SIZE);
  auto* base = static_cast<std::byte*>(out);
  std::memcpy(base, &header, kCacheHeaderBytes);
  // A header alone is a valid, empty cache; the payload needs its own header and at least one whole entry.
  size_t used = kCacheHeaderBytes + kCachePayloadHeaderBytes;
  uint32_t count = 0;
  for (const CacheDataEntry& entry : entries) {
    if (used > capacity || capacity - used < EntryBytes(entry)) break;
    used += EntryBytes(entry);
    ++count;
  }
  if (count == 0) return kCacheHeaderBytes;
  std::byte* cursor = base + kCacheHeaderBytes + kCachePayloadHeaderBytes;
  std::byte* entriesStart = cursor;
  for (uint32_t i = 0; i < count; ++i) {
    const CacheDataEntry& entry = entries[i];
    Put(cursor, entry.key.low);
    Put(cursor, entry.key.high);
    Put(cursor, static_cast<uint32_t>(entry.spirv->size()));
    Put(cursor, uint32_t{0});
    std::memcpy(cursor, entry.spirv->data(), entry.spirv->size() * 4);
    cursor += entry.spirv->size() * 4;
  }
  uint64_t checksum = Fnv1a64(entriesStart, static_cast<size_t>(cursor - entriesStart));
  std::byte* payload = base + kCacheHeaderBytes;
  Put(payload, kCachePayloadMagic);
  Put(payload, kCachePayloadVersion);
  Put(payload, kCompilerVersion);
  Put(payload, count);
  Put(payload, checksum);
  return used;
}

bool ReadCacheData(const void* data, size_t size, const CacheIdentity& expected, std::vector<CacheDataEntry>* entries,
                   std::string* reason) {
  entries->clear();
  Reader reader(static_cast<const std::byte*>(data), size);
  VkPipelineCacheHeaderVersionOne header;
  if (!reader.Get(&header))
    return Fail(reason, std::to_string(size) + " bytes, shorter than the 32-byte VkPipelineCacheHeaderVersionOne");
  if (header.headerVersion != VK_PIPELINE_CACHE_HEADER_VERSION_ONE)
    return Fail(reason, "headerVersion " + std::to_string(header.headerVersion) + " is not 1 (VERSION_ONE)");
  if (header.headerSize != kCacheHeaderBytes)
    return Fail(reason, "headerSize " + std::to_string(header.headerSize) + " is not 32");
  if (header.vendorID != expected.vendorID || header.deviceID != expected.deviceID)
    return Fail(reason, "written for vendorID " + std::to_string(header.vendorID) + " deviceID " +
                            std::to_string(header.deviceID) + ", this device is vendorID " +
                            std::to_string(expected.vendorID) + " deviceID " + std::to_string(expected.deviceID));
  if (std::memcmp(header.pipelineCacheUUID, expected.uuid, VK_UUID_SIZE) != 0)
    return Fail(reason, "pipelineCacheUUID " + Hex(header.pipelineCacheUUID, VK_UUID_SIZE) +
                            " is not this device's " + Hex(expected.uuid, VK_UUID_SIZE));
  if (reader.remaining() == 0) return true;  // a header alone: a valid, empty cache
  uint32_t magic = 0, version = 0, compiler = 0, count = 0;
  uint64_t checksum = 0;
  if (!reader.Get(&magic) || !reader.Get(&version) || !reader.Get(&compiler) || !reader.Get(&count) ||
      !reader.Get(&checksum))
    return Fail(reason, "payload truncated inside its header");
  if (magic != kCachePayloadMagic) return Fail(reason, "payload magic is not crashtest's");
  if (version != kCachePayloadVersion)
    return Fail(reason, "payload format version " + std::to_string(version) + " is not " +
                            std::to_string(kCachePayloadVersion));
  if (compiler != kCompilerVersion)
    return Fail(reason, "written by compiler version " + std::to_string(compiler) + ", this is " +
                            std::to_string(kCompilerVersion));
  size_t entriesStart = reader.offset();
  if (Fnv1a64(static_cast<const std::byte*>(data) + entriesStart, reader.remaining()) != checksum)
    return Fail(reason, "payload checksum mismatch (corrupt or truncated)");
  std::vector<CacheDataEntry> parsed;
  for (uint32_t i = 0; i < count; ++i) {
    CacheDataEntry entry;
    uint32_t words = 0, reserved = 0;
    if (!reader.Get(&entry.key.low) || !reader.Get(&entry.key.high) || !reader.Get(&words) || !reader.Get(&reserved))
      return Fail(reason, "entry " + std::to_string(i) + " of " + std::to_string(count) + " truncated");
    if (words < 5 || words > reader.remaining() / 4)
      return Fail(reason, "entry " + std::to_string(i) + " claims " + std::to_string(words) + " SPIR-V words, " +
                              std::to_string(reader.remaining()) + " bytes remain");
    const std::byte* code = reader.Take(static_cast<size_t>(words) * 4);
    auto spirv = std::make_shared<std::vector<uint32_t>>(words);
    std::memcpy(spirv->data(), code, static_cast<size_t>(words) * 4);
    entry.spirv = std::move(spirv);
    parsed.push_back(std::move(entry));
  }
  if (reader.remaining() != 0)
    return Fail(reason, std::to_string(reader.remaining()) + " bytes after the last of " + std::to_string(count) +
                            " entries");
  *entries = std::move(parsed);
  return true;
}

}  // namespace crashtest::pipeline
