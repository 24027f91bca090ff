// A decoded vendor binary as people and tools read it (`crashtest decode`): the fault, where the queue was
// ("executing command 5 (vkCmdDispatch, pipeline 7 "Blur") of command buffer 3 ... inside labels Frame 12 >
// Shadows"), the faulting instruction and source line, the resource owning each fault address (or the freed one
// it falls in), the breadcrumbs, then the details. Or JSON with the same facts for crash-report pipelines.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "fault/dump/dump_reader.h"

namespace crashtest::dump {

// The resource a fault address falls in: a buffer or image before its memory, live before freed; nullptr when
// none of the dump's resources holds it.
const Resource* AttributeAddress(const Content& content, uint64_t address);
// For an address no resource holds: the resource that ends closest below it, within 64 KiB (the address space's
// guard granule) — the classic off-by-N past the end of a buffer. Buffers and images before memory, live before
// freed; nullptr when none is that close.
const Resource* NearestBelow(const Content& content, uint64_t address);

std::string DumpText(const Decoded& dump);
nlohmann::json DumpJson(const Decoded& dump);

}  // namespace crashtest::dump
