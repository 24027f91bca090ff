#include "fault/vendor_binary.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace crashtest {
namespace {

// "The vendor binary header ... little-endian": writing host integers byte for byte is only right on a
// little-endian host, which is every host crashtest builds for.
static_assert(std::endian::native == std::endian::little, "the vendor binary is written little-endian");

class Writer {
 public:
  size_t size() const { return bytes_.size(); }
  void U32(uint32_t v) { Raw(&v, sizeof(v)); }
  void U64(uint64_t v) { Raw(&v, sizeof(v)); }
  void Raw(const void* data, size_t n) {
    const auto* p = static_cast<const std::byte*>(data);
    bytes_.insert(bytes_.end(), p, p + n);
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
  std::vector<std::byte> Take() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
};

}  // namespace

std::vector<std::byte> BuildVendorBinary(const FaultIdentity& identity, std::span<const FaultReport> reports,
                                         std::span<const std::string> faultIds) {
  Writer w;
  // VkDeviceFaultVendorBinaryHeaderVersionOneKHR, 56 bytes, tightly packed
  // (VUID-VkDeviceFaultVendorBinaryHeaderVersionOneEXT-headerSize-07340: headerSize must be 56).
  w.U32(kVendorBinaryHeaderSize);
  w.U32(VK_DEVICE_FAULT_VENDOR_BINARY_HEADER_VERSION_ONE_KHR);
  w.U32(identity.vendorID);
  w.U32(identity.deviceID);
  w.U32(identity.driverVersion);
  w.Raw(identity.pipelineCacheUUID.data(), VK_UUID_SIZE);
  const size_t applicationNameOffsetField = w.size();
  w.U32(0);
  w.U32(identity.applicationVersion);
  const size_t engineNameOffsetField = w.size();
  w.U32(0);
  w.U32(identity.engineVersion);
  w.U32(identity.apiVersion);
  // "applicationNameOffset ... zero, or an offset from the base address of the crash dump header to a
  // null-terminated UTF-8 string containing the name of the application".
  if (!identity.applicationName.empty()) {
    w.PatchU32(applicationNameOffsetField, static_cast<uint32_t>(w.size()));
    w.CString(identity.applicationName);
  }
  if (!identity.engineName.empty()) {
    w.PatchU32(engineNameOffsetField, static_cast<uint32_t>(w.size()));
    w.CString(identity.engineName);
  }
  w.Align(8);

  // crashtest's container: magic, version, section count, then sections {type, version, payload size, payload}.
  w.Raw(kDumpMagic, sizeof(kDumpMagic));
  w.U32(kDumpVersion);
  w.U32(1);  // sections

  w.U32(kSectionFaults);
  w.U32(kSectionFaultsVersion);
  const size_t payloadSizeField = w.size();
  w.U64(0);
  const size_t payloadStart = w.size();
  w.U32(static_cast<uint32_t>(reports.size()));
  w.U32(kFaultRecordSize);
  for (size_t i = 0; i < reports.size(); ++i) {
    const FaultReport& r = reports[i];
    w.U32(r.flags);
    w.U32(static_cast<uint32_t>(r.faultAddressInfo.addressType));
    w.U64(r.groupId);
    w.U64(r.faultAddressInfo.reportedAddress);
    w.U64(r.faultAddressInfo.addressPrecision);
    w.U32(static_cast<uint32_t>(r.instructionAddressInfo.addressType));
    w.U32(0);
    w.U64(r.instructionAddressInfo.reportedAddress);
    w.U64(r.instructionAddressInfo.addressPrecision);
    w.U64(r.vendorInfo.vendorFaultCode);
    w.U64(r.vendorInfo.vendorFaultData);
    w.Text(i < faultIds.size() ? faultIds[i].c_str() : "", kFaultIdSize);
    w.Text(r.description, VK_MAX_DESCRIPTION_SIZE);
    w.Text(r.vendorInfo.description, VK_MAX_DESCRIPTION_SIZE);
  }
  w.PatchU64(payloadSizeField, w.size() - payloadStart);
  w.Align(8);
  return w.Take();
}

}  // namespace crashtest
