// Section 5: memory allocations, buffers and images with their device-address ranges, live and recently freed,
// so a faulting address is attributed to its owner or to the destroyed one it falls in (a use after free). The
// ones containing a reported address come first, so the size cap keeps them.
#include "fault/dump/dump_sections.h"

namespace crashtest::dump {

void WriteResourcesSection(ByteWriter& w, std::span<const Resource> resources) {
  w.List(resources.size(), [&](size_t i) {
    const Resource& r = resources[i];
    w.U8(static_cast<uint8_t>(r.kind));
    w.U8(r.freed ? 1 : 0);
    w.U64(r.id);
    w.U64(r.address);
    w.U64(r.size);
    w.U64(r.memoryId);
    w.U32(r.heap);
    w.String(r.name);
  });
}

}  // namespace crashtest::dump
