// Before a transfer command touches a buffer, the queue checks that the buffer and the memory bound to it are
// still alive (common/live_objects.h). Destroying them while pending work uses them is a misuse
// (VUID-vkDestroyBuffer-buffer-00922, VUID-vkFreeMemory-memory-00677) that a GPU answers with a page fault: the
// queue raises a device fault through the fault engine — READ_INVALID or WRITE_INVALID at the buffer's device
// address, described as a use after free — and the command does not run. Their storage is still there
// (device/deferred_destruction.h), so checking and copying never race with the free.
#pragma once

#include <string>

#include "command/command_ops.h"

namespace crashtest {

class Queue;

// False when a buffer `record` (a command of kind `op`) names is destroyed or its memory freed: the fault is
// raised (a device loss unless the plan masks it) and the command must not run. `where` names the command.
bool TransferResourcesLive(Queue& queue, CommandOp op, const void* record, const std::string& where);

}  // namespace crashtest
