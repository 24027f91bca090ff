// Section 1: the fault reports of the loss, as fixed-size records (VkDeviceFaultInfoKHR's fields, the plan's id).
#include "fault/dump/dump_sections.h"

namespace crashtest::dump {

void WriteFaultsSection(ByteWriter& w, std::span<const FaultReport> reports, std::span<const std::string> faultIds) {
  // Version 1 began with u32 count and u32 record size; the record size lets a reader skip appended fields. The
  // reports are the reason for the dump, so the size cap never cuts them.
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
}

}  // namespace crashtest::dump
