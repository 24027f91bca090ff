// The resources a dispatch sees, flattened before it starts: one host range per buffer descriptor slot of the
// executable (slot 0: the push-constant block), and the device-address map for physical storage buffers. The
// bounds here decide what is out of range.
#pragma once

#include <cstddef>
#include <cstdint>

namespace crashtest::execution {

struct BufferRange {
  std::byte* data = nullptr;  // nullptr: no descriptor (every access is out of range)
  uint64_t size = 0;          // bytes the shader may access from data
  uint64_t address = 0;       // the device address of data (for fault reports)
  // A null descriptor with VK_EXT_robustness2's nullDescriptor: accesses read zero and write nothing, never a
  // fault ("reads return zero, writes are discarded").
  bool null = false;
};

// A register slot pair (a global pointer) whose value is known only when the dispatch starts: the first table entry
// of a runtime-sized descriptor array (the set decides how many descriptors it has).
struct SlotPatch {
  uint32_t slot = 0;
  uint64_t value = 0;
};

// A device address range backed by host memory.
struct AddressRange {
  std::byte* host = nullptr;
  uint64_t base = 0;
  uint64_t size = 0;
  bool Contains(uint64_t address, uint64_t bytes) const {
    return host != nullptr && address >= base && bytes <= size && address - base <= size - bytes;
  }
};

// Device address → live allocation, for physical storage buffers (buffer device address).
class AddressMap {
 public:
  virtual ~AddressMap() = default;
  // The live allocation containing `address`; false when none does. *freed is set when the address lies in a
  // recently freed allocation (a use after free).
  virtual bool Find(uint64_t address, AddressRange* out, bool* freed) const = 0;
};

}  // namespace crashtest::execution
