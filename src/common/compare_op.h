// "reference op value" for a VkCompareOp: the depth and stencil tests (28.8, 28.9) and the sampler's depth
// comparison ("D_ref OP D", 16.3.1 "Depth Compare Operation") share the same table of operators.
#pragma once

#include <vulkan/vulkan.h>

namespace crashtest {

template <typename T>
inline bool CompareOp(VkCompareOp op, T reference, T value) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return reference < value;
    case VK_COMPARE_OP_EQUAL: return reference == value;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return reference <= value;
    case VK_COMPARE_OP_GREATER: return reference > value;
    case VK_COMPARE_OP_NOT_EQUAL: return reference != value;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return reference >= value;
    default: return true;  // ALWAYS
  }
}

}  // namespace crashtest
