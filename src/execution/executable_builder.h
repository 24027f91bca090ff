// IR → executable form (executable.h), at pipeline creation. Knows nothing of Vulkan objects or queues.
#pragma once

#include <memory>
#include <string>

#include "execution/executable.h"
#include "pipeline/ir/module.h"

namespace crashtest::execution {

// Builds the executable form of an optimised entry point. nullptr with *message naming the first construct the
// interpreter does not execute yet ("OpImageRead (result %42)"); the pipeline is still valid, its dispatches are
// then skipped with a warning.
std::shared_ptr<const Executable> BuildExecutable(const ir::Module& module, std::string* message);

}  // namespace crashtest::execution
