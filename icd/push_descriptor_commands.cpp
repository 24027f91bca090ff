// Thunks of VK_KHR_push_descriptor's two recording commands. The descriptors are captured into the command
// buffer's stream at record time (descriptor/push_descriptors.h); like every vkCmd*, recording throws nothing.
#include "command/command_buffer.h"
#include "descriptor/push_descriptors.h"
#include "entry_points.h"

namespace crashtest::icd {

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetKHR(VkCommandBuffer commandBuffer,
                                                   VkPipelineBindPoint pipelineBindPoint, VkPipelineLayout layout,
                                                   uint32_t set, uint32_t descriptorWriteCount,
                                                   const VkWriteDescriptorSet* pDescriptorWrites) {
  RecordPushDescriptorSet(*FromHandle(commandBuffer), pipelineBindPoint, layout, set, descriptorWriteCount,
                          pDescriptorWrites);
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer commandBuffer,
                                                               VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                               VkPipelineLayout layout, uint32_t set,
                                                               const void* pData) {
  RecordPushDescriptorSetWithTemplate(*FromHandle(commandBuffer), descriptorUpdateTemplate, layout, set, pData);
}

}  // namespace crashtest::icd
