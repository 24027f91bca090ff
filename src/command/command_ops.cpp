#include "command/command_ops.h"

namespace crashtest {

const char* CommandName(CommandOp op) {
  static constexpr const char* kNames[] = {
#define CT_COMMAND_OP_NAME(Name) "vkCmd" #Name,
      CT_COMMAND_OPS(CT_COMMAND_OP_NAME)
#undef CT_COMMAND_OP_NAME
  };
  auto index = static_cast<uint16_t>(op);
  return index < static_cast<uint16_t>(CommandOp::Count) ? kNames[index] : "vkCmd(unknown)";
}

}  // namespace crashtest
