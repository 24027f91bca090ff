// Section 6: every debug-utils object name of the device (vkSetDebugUtilsObjectNameEXT), by type and handle.
#include "fault/dump/dump_sections.h"

namespace crashtest::dump {

void WriteObjectNamesSection(ByteWriter& w, std::span<const ObjectName> names) {
  w.List(names.size(), [&](size_t i) {
    w.U32(names[i].type);
    w.U64(names[i].handle);
    w.String(names[i].name);
  });
}

}  // namespace crashtest::dump
