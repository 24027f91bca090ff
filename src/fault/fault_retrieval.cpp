#include "fault/fault_retrieval.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "common/log.h"
#include "common/result.h"
#include "fault/fault_engine.h"
#include "fault/vendor_binary.h"

namespace crashtest {

VkResult GetDeviceFaultReports(FaultEngine& engine, uint64_t timeout, uint32_t* pFaultCounts,
                               VkDeviceFaultInfoKHR* pFaultInfo) {
  // VUID-vkGetDeviceFaultReportsKHR-pFaultCounts-arraylength: a non-NULL pFaultInfo needs *pFaultCounts > 0.
  if (pFaultInfo != nullptr && *pFaultCounts == 0)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkGetDeviceFaultReportsKHR: pFaultInfo is not NULL but *pFaultCounts is 0 "
                       "(VUID-vkGetDeviceFaultReportsKHR-pFaultCounts-arraylength)");
  return engine.reports().Take(timeout, pFaultCounts, pFaultInfo);
}

VkResult GetDeviceFaultDebugInfo(const FaultEngine& engine, VkDeviceFaultDebugInfoKHR* pDebugInfo) {
  const LossSnapshot* loss = engine.loss();
  if (loss == nullptr) {
    // VUID-vkGetDeviceFaultDebugInfoKHR-device-12383: the device must be lost. There is no binary to give.
    CT_WARN("vkGetDeviceFaultDebugInfoKHR: the device is not lost (VUID-vkGetDeviceFaultDebugInfoKHR-device-12383); "
            "no vendor binary");
    pDebugInfo->vendorBinarySize = 0;
    return VK_SUCCESS;
  }
  // "If deviceFaultVendorBinary is not enabled ... vendorBinarySize ... 0" and pVendorBinaryData is not touched.
  const std::vector<std::byte>& binary = loss->vendorBinary;
  const uint32_t total = engine.features().vendorBinary ? static_cast<uint32_t>(binary.size()) : 0;
  if (pDebugInfo->pVendorBinaryData == nullptr) {
    pDebugInfo->vendorBinarySize = total;
    return VK_SUCCESS;
  }
  if (pDebugInfo->vendorBinarySize >= total) {
    std::memcpy(pDebugInfo->pVendorBinaryData, binary.data(), total);
    pDebugInfo->vendorBinarySize = total;
    return VK_SUCCESS;
  }
  // Too small: the spec body is silent; crashtest mirrors VK_EXT_device_fault (the header must fit, else nothing
  // is written and the size is 0) and returns VK_INCOMPLETE (documented in docs/faults.md).
  if (pDebugInfo->vendorBinarySize < kVendorBinaryHeaderSize) {
    pDebugInfo->vendorBinarySize = 0;
  } else {
    std::memcpy(pDebugInfo->pVendorBinaryData, binary.data(), pDebugInfo->vendorBinarySize);
  }
  return VK_INCOMPLETE;
}

namespace {

// The address infos of a loss: each report's fault address, then its instruction address, in report order.
std::vector<VkDeviceFaultAddressInfoEXT> AddressInfos(const LossSnapshot& loss) {
  std::vector<VkDeviceFaultAddressInfoEXT> out;
  for (const FaultReport& r : loss.reports) {
    if (r.flags & VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR) out.push_back(r.faultAddressInfo);
    if (r.flags & VK_DEVICE_FAULT_FLAG_INSTRUCTION_ADDRESS_BIT_KHR) out.push_back(r.instructionAddressInfo);
  }
  return out;
}

std::vector<VkDeviceFaultVendorInfoEXT> VendorInfos(const LossSnapshot& loss) {
  std::vector<VkDeviceFaultVendorInfoEXT> out;
  for (const FaultReport& r : loss.reports)
    if (r.flags & VK_DEVICE_FAULT_FLAG_VENDOR_BIT_KHR) out.push_back(r.vendorInfo);
  return out;
}

}  // namespace

VkResult GetDeviceFaultInfoEXT(const FaultEngine& engine, VkDeviceFaultCountsEXT* pFaultCounts,
                               VkDeviceFaultInfoEXT* pFaultInfo) {
  const LossSnapshot* loss = engine.loss();
  // dEQP-VK.postmortem.device_fault.real calls this on a healthy device and requires VK_SUCCESS: zero counts.
  static const LossSnapshot kNone;
  const LossSnapshot& snapshot = loss != nullptr ? *loss : kNone;
  const std::vector<VkDeviceFaultAddressInfoEXT> addresses = AddressInfos(snapshot);
  const std::vector<VkDeviceFaultVendorInfoEXT> vendors = VendorInfos(snapshot);
  const VkDeviceSize binarySize = engine.features().vendorBinary ? snapshot.vendorBinary.size() : 0;
  if (pFaultInfo == nullptr) {
    pFaultCounts->addressInfoCount = static_cast<uint32_t>(addresses.size());
    pFaultCounts->vendorInfoCount = static_cast<uint32_t>(vendors.size());
    pFaultCounts->vendorBinarySize = binarySize;
    return VK_SUCCESS;
  }
  VkResult result = VK_SUCCESS;
  // "description ... always written".
  std::memset(pFaultInfo->description, 0, sizeof(pFaultInfo->description));
  if (!snapshot.reports.empty())
    std::memcpy(pFaultInfo->description, snapshot.reports.front().description, sizeof(pFaultInfo->description));
  // Capacities in, amounts written out; a NULL array with a non-zero count is legal and receives nothing.
  auto fill = [&](uint32_t& count, auto* array, const auto& items) {
    const uint32_t available = static_cast<uint32_t>(items.size());
    if (array != nullptr && count < available) result = VK_INCOMPLETE;  // a NULL array asked for nothing
    const uint32_t written = std::min(count, available);
    if (array != nullptr) std::copy_n(items.begin(), written, array);
    count = array != nullptr ? written : available;
  };
  fill(pFaultCounts->addressInfoCount, pFaultInfo->pAddressInfos, addresses);
  fill(pFaultCounts->vendorInfoCount, pFaultInfo->pVendorInfos, vendors);
  if (pFaultInfo->pVendorBinaryData != nullptr && binarySize != 0) {
    if (pFaultCounts->vendorBinarySize < binarySize) result = VK_INCOMPLETE;
    // "If vendorBinarySize is less than the size of the header ... nothing ... written ... vendorBinarySize 0".
    if (pFaultCounts->vendorBinarySize < kVendorBinaryHeaderSize) {
      pFaultCounts->vendorBinarySize = 0;
    } else {
      const VkDeviceSize written = std::min(pFaultCounts->vendorBinarySize, binarySize);
      std::memcpy(pFaultInfo->pVendorBinaryData, snapshot.vendorBinary.data(), written);
      pFaultCounts->vendorBinarySize = written;
    }
  } else if (binarySize == 0) {
    pFaultCounts->vendorBinarySize = 0;  // the binary feature is off or the loss has none: pVendorBinaryData untouched
  } else {
    pFaultCounts->vendorBinarySize = binarySize;  // no buffer: nothing asked for, the total is reported
  }
  return result;
}

}  // namespace crashtest
