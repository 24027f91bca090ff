// Descriptor set layouts, pools, sets, updates, copies and templates through the loader; the records are read
// through the set's test-only accessor (see memory_test_env.h).
#include <cstdlib>
#include <string>

#include "descriptor/descriptor_set.h"
#include "device/resources.h"
#include "memory/sampler.h"
#include "memory_test_env.h"

namespace crashtest::test {
namespace {

class DescriptorTest : public MemoryTest {
 protected:
  VkDescriptorSetLayout MakeLayout(std::vector<VkDescriptorSetLayoutBinding> bindings, const void* pNext = nullptr) {
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, pNext};
    info.bindingCount = static_cast<uint32_t>(bindings.size());
    info.pBindings = bindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorSetLayout(device_, &info, nullptr, &layout), VK_SUCCESS);
    return layout;
  }
  VkDescriptorPool MakePool(uint32_t maxSets, std::vector<VkDescriptorPoolSize> sizes,
                            VkDescriptorPoolCreateFlags flags = 0) {
    VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    info.flags = flags;
    info.maxSets = maxSets;
    info.poolSizeCount = static_cast<uint32_t>(sizes.size());
    info.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorPool(device_, &info, nullptr, &pool), VK_SUCCESS);
    return pool;
  }
  VkResult AllocateSet(VkDescriptorPool pool, VkDescriptorSetLayout layout, VkDescriptorSet* set,
                       const void* pNext = nullptr) {
    VkDescriptorSetAllocateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, pNext, pool, 1, &layout};
    return vkAllocateDescriptorSets(device_, &info, set);
  }
  static const DescriptorSet& Set(VkDescriptorSet set) { return *crashtest::FromHandle(set); }

  static constexpr VkShaderStageFlags kAll = VK_SHADER_STAGE_ALL;
};

TEST_F(DescriptorTest, PoolRunsOutOfSetsAndDescriptors) {
  VkDescriptorSetLayout layout = MakeLayout({{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, kAll, nullptr}});
  VkDescriptorPool pool = MakePool(2, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 5}});
  VkDescriptorSet sets[3];
  EXPECT_EQ(AllocateSet(pool, layout, &sets[0]), VK_SUCCESS);
  EXPECT_EQ(AllocateSet(pool, layout, &sets[1]), VK_SUCCESS);
  EXPECT_EQ(AllocateSet(pool, layout, &sets[2]), VK_ERROR_OUT_OF_POOL_MEMORY) << "maxSets";
  EXPECT_EQ(sets[2], VK_NULL_HANDLE);
  ASSERT_EQ(vkResetDescriptorPool(device_, pool, 0), VK_SUCCESS);

  VkDescriptorSetLayout big = MakeLayout({{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4, kAll, nullptr}});
  EXPECT_EQ(AllocateSet(pool, big, &sets[0]), VK_SUCCESS);
  EXPECT_EQ(AllocateSet(pool, big, &sets[1]), VK_ERROR_OUT_OF_POOL_MEMORY) << "only 1 of 4 descriptors left";
  VkDescriptorSetLayout other = MakeLayout({{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, kAll, nullptr}});
  EXPECT_EQ(AllocateSet(pool, other, &sets[1]), VK_ERROR_OUT_OF_POOL_MEMORY) << "no uniform buffers in the pool";

  // All or nothing: a two-set allocation whose second set fails leaves nothing allocated.
  vkResetDescriptorPool(device_, pool, 0);
  VkDescriptorSetLayout pair[2] = {layout, big};
  VkDescriptorSetAllocateInfo two{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 2, pair};
  EXPECT_EQ(vkAllocateDescriptorSets(device_, &two, sets), VK_ERROR_OUT_OF_POOL_MEMORY);
  EXPECT_EQ(sets[0], VK_NULL_HANDLE);
  EXPECT_EQ(AllocateSet(pool, big, &sets[0]), VK_SUCCESS) << "the failed call gave its first set back";

  vkDestroyDescriptorPool(device_, pool, nullptr);
  vkDestroyDescriptorSetLayout(device_, layout, nullptr);
  vkDestroyDescriptorSetLayout(device_, big, nullptr);
  vkDestroyDescriptorSetLayout(device_, other, nullptr);
}

TEST_F(DescriptorTest, FreedHolesFragmentThePoolButSameSizedSetsAlwaysFit) {
  VkDescriptorSetLayout one = MakeLayout({{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, kAll, nullptr}});
  VkDescriptorSetLayout two = MakeLayout({{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2, kAll, nullptr}});
  VkDescriptorPool pool =
      MakePool(4, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4}}, VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT);
  VkDescriptorSet sets[4];
  for (VkDescriptorSet& s : sets) ASSERT_EQ(AllocateSet(pool, one, &s), VK_SUCCESS);
  VkDescriptorSet holes[2] = {sets[0], sets[2]};
  ASSERT_EQ(vkFreeDescriptorSets(device_, pool, 2, holes), VK_SUCCESS);
  VkDescriptorSet wide = VK_NULL_HANDLE;
  EXPECT_EQ(AllocateSet(pool, two, &wide), VK_ERROR_FRAGMENTED_POOL) << "2 free descriptors, not adjacent";
  EXPECT_EQ(AllocateSet(pool, one, &sets[0]), VK_SUCCESS);
  EXPECT_EQ(AllocateSet(pool, one, &sets[2]), VK_SUCCESS);
  vkDestroyDescriptorPool(device_, pool, nullptr);
  vkDestroyDescriptorSetLayout(device_, one, nullptr);
  vkDestroyDescriptorSetLayout(device_, two, nullptr);
}

TEST_F(DescriptorTest, FreeingNeedsTheFreeBit) {
  VkDescriptorSetLayout layout = MakeLayout({{0, VK_DESCRIPTOR_TYPE_SAMPLER, 1, kAll, nullptr}});
  VkDescriptorPool pool = MakePool(1, {{VK_DESCRIPTOR_TYPE_SAMPLER, 1}});
  VkDescriptorSet set;
  ASSERT_EQ(AllocateSet(pool, layout, &set), VK_SUCCESS);
  EXPECT_NE(vkFreeDescriptorSets(device_, pool, 1, &set), VK_SUCCESS);
  vkDestroyDescriptorPool(device_, pool, nullptr);
  vkDestroyDescriptorSetLayout(device_, layout, nullptr);
}

// A second vkFreeDescriptorSets of the same set (VUID-vkFreeDescriptorSets-pDescriptorSets-00310: each element a
// valid handle or VK_NULL_HANDLE) is logged and ignored, and the pool stays whole (issue 18). Before, the stale set
// was released again: its capacity was given back twice and the set moved into its old slot dropped from the pool
// (a live set lost, a third set allocated in a pool of maxSets 2), and with allocation callbacks its memory, given
// back to them, was read (ASan: heap-use-after-free).
void ExpectDoubleFreeIgnored(VkDevice device, VkDescriptorSetLayout layout, const VkAllocationCallbacks* callbacks) {
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2};
  VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr,
                                      VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT, 2, 1, &size};
  VkDescriptorPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDescriptorPool(device, &poolInfo, callbacks, &pool), VK_SUCCESS);
  auto allocate = [&](VkDescriptorSet* set) {
    VkDescriptorSetAllocateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &layout};
    return vkAllocateDescriptorSets(device, &info, set);
  };
  VkDescriptorSet a = VK_NULL_HANDLE, b = VK_NULL_HANDLE, c = VK_NULL_HANDLE, d = VK_NULL_HANDLE;
  ASSERT_EQ(allocate(&a), VK_SUCCESS);
  ASSERT_EQ(allocate(&b), VK_SUCCESS);
  ASSERT_EQ(vkFreeDescriptorSets(device, pool, 1, &a), VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(vkFreeDescriptorSets(device, pool, 1, &a), VK_SUCCESS);
  // The same stale set twice in one call, beside a live one, which is freed.
  VkDescriptorSet mixed[3] = {a, b, a};
  EXPECT_EQ(vkFreeDescriptorSets(device, pool, 3, mixed), VK_SUCCESS);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("VUID-vkFreeDescriptorSets-pDescriptorSets-00310"), std::string::npos) << log;
  // Both sets are free now, no more: two fit, a third does not.
  EXPECT_EQ(allocate(&c), VK_SUCCESS);
  EXPECT_EQ(allocate(&d), VK_SUCCESS);
  VkDescriptorSet e = VK_NULL_HANDLE;
  EXPECT_EQ(allocate(&e), VK_ERROR_OUT_OF_POOL_MEMORY) << "maxSets is 2";
  VkDescriptorSet both[2] = {c, d};
  EXPECT_EQ(vkFreeDescriptorSets(device, pool, 2, both), VK_SUCCESS);
  EXPECT_EQ(allocate(&c), VK_SUCCESS);
  vkDestroyDescriptorPool(device, pool, callbacks);
}

TEST_F(DescriptorTest, FreeingASetTwiceIsLoggedAndIgnored) {
  VkDescriptorSetLayout layout = MakeLayout({{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, kAll, nullptr}});
  ExpectDoubleFreeIgnored(device_, layout, nullptr);
  vkDestroyDescriptorSetLayout(device_, layout, nullptr);
}

// With allocation callbacks a freed set's memory goes back to them at once: the stale handle must not be read.
TEST_F(DescriptorTest, FreeingASetTwiceWithAllocationCallbacksIsLoggedAndIgnored) {
  VkDescriptorSetLayout layout = MakeLayout({{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, kAll, nullptr}});
  VkAllocationCallbacks callbacks{};
  callbacks.pfnAllocation = [](void*, size_t size, size_t alignment, VkSystemAllocationScope) -> void* {
    return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  };
  callbacks.pfnReallocation = [](void*, void*, size_t, size_t, VkSystemAllocationScope) -> void* { return nullptr; };
  callbacks.pfnFree = [](void*, void* memory) { std::free(memory); };
  ExpectDoubleFreeIgnored(device_, layout, &callbacks);
  vkDestroyDescriptorSetLayout(device_, layout, nullptr);
}

TEST_F(DescriptorTest, WritesOverflowIntoTheNextBindingAndCopiesFollow) {
  // Bindings given out of order: the layout sorts them.
  VkDescriptorSetLayout layout = MakeLayout({{5, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, kAll, nullptr},
                                             {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 3, kAll, nullptr},
                                             {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2, kAll, nullptr}});
  VkDescriptorPool pool = MakePool(2, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 10}, {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 2}});
  VkDescriptorSet a, b;
  ASSERT_EQ(AllocateSet(pool, layout, &a), VK_SUCCESS);
  ASSERT_EQ(AllocateSet(pool, layout, &b), VK_SUCCESS);
  VkBuffer buffer = CreateBuffer(4096, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  VkDeviceMemory memory = BindNewMemory(buffer);
  VkDescriptorBufferInfo infos[3] = {{buffer, 0, 256}, {buffer, 256, 512}, {buffer, 1024, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, a, 0, 1, 3,
                             VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, nullptr, infos, nullptr};
  vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);

  const crashtest::Buffer* object = crashtest::FromHandle(buffer);
  EXPECT_EQ(Set(a).Find(0, 0)->buffer, nullptr) << "untouched";
  EXPECT_EQ(Set(a).Find(0, 1)->buffer, object);
  EXPECT_EQ(Set(a).Find(0, 1)->range, 256u);
  EXPECT_EQ(Set(a).Find(1, 0)->offset, 256u) << "overflowed into binding 1";
  EXPECT_EQ(Set(a).Find(1, 1)->offset, 1024u);
  EXPECT_EQ(Set(a).Find(1, 1)->range, 4096u - 1024) << "VK_WHOLE_SIZE resolved";
  EXPECT_EQ(Set(a).Find(1, 2)->buffer, nullptr);
  EXPECT_EQ(Set(a).Find(5, 0)->type, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE);

  // Copy 3 descriptors from a.(0,1) to b.(1,0): the source walks into binding 1 as well.
  VkCopyDescriptorSet copy{VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, nullptr, a, 0, 1, b, 1, 0, 3};
  vkUpdateDescriptorSets(device_, 0, nullptr, 1, &copy);
  EXPECT_EQ(Set(b).Find(1, 0)->offset, 0u);
  EXPECT_EQ(Set(b).Find(1, 0)->range, 256u);
  EXPECT_EQ(Set(b).Find(1, 1)->offset, 256u);
  EXPECT_EQ(Set(b).Find(1, 2)->offset, 1024u);
  EXPECT_EQ(Set(b).Find(0, 0)->buffer, nullptr);

  vkDestroyDescriptorPool(device_, pool, nullptr);
  vkDestroyDescriptorSetLayout(device_, layout, nullptr);
  vkDestroyBuffer(device_, buffer, nullptr);
  vkFreeMemory(device_, memory, nullptr);
}

TEST_F(DescriptorTest, ImmutableSamplersAreCopiedAndSurviveTheSampler) {
  VkSamplerCreateInfo samplerInfo{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  samplerInfo.magFilter = VK_FILTER_LINEAR;
  samplerInfo.addressModeU = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
  VkSampler sampler;
  ASSERT_EQ(vkCreateSampler(device_, &samplerInfo, nullptr, &sampler), VK_SUCCESS);
  VkSampler immutable[2] = {sampler, sampler};
  VkDescriptorSetLayout layout =
      MakeLayout({{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, kAll, immutable}});
  vkDestroySampler(device_, sampler, nullptr);
  VkDescriptorPool pool = MakePool(1, {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2}});
  VkDescriptorSet set;
  ASSERT_EQ(AllocateSet(pool, layout, &set), VK_SUCCESS);
  vkDestroyDescriptorSetLayout(device_, layout, nullptr);  // the set keeps it alive
  const DescriptorRecord* record = Set(set).Find(0, 1);
  ASSERT_NE(record->sampler, nullptr);
  EXPECT_EQ(record->sampler->state().info.magFilter, VK_FILTER_LINEAR);
  EXPECT_EQ(record->sampler->state().info.addressModeU, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT);
  vkDestroyDescriptorPool(device_, pool, nullptr);
}

TEST_F(DescriptorTest, VariableDescriptorCountsSizeTheSet) {
  VkDescriptorBindingFlags flags[2] = {0, VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT};
  VkDescriptorSetLayoutBindingFlagsCreateInfo bindingFlags{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO, nullptr, 2, flags};
  VkDescriptorSetLayout layout = MakeLayout({{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kAll, nullptr},
                                             {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 100, kAll, nullptr}},
                                            &bindingFlags);
  VkDescriptorPool pool = MakePool(3, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 10}});
  uint32_t counts[1] = {6};
  VkDescriptorSetVariableDescriptorCountAllocateInfo variable{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO, nullptr, 1, counts};
  VkDescriptorSet set, second;
  ASSERT_EQ(AllocateSet(pool, layout, &set, &variable), VK_SUCCESS);
  EXPECT_EQ(Set(set).variableCount(), 6u);
  EXPECT_EQ(Set(set).records().size(), 7u);
  EXPECT_NE(Set(set).Find(1, 5), nullptr);
  EXPECT_EQ(Set(set).Find(1, 6), nullptr);
  EXPECT_EQ(AllocateSet(pool, layout, &second, &variable), VK_ERROR_OUT_OF_POOL_MEMORY) << "7 + 7 > 10";
  counts[0] = 2;
  EXPECT_EQ(AllocateSet(pool, layout, &second, &variable), VK_SUCCESS);
  vkDestroyDescriptorPool(device_, pool, nullptr);
  vkDestroyDescriptorSetLayout(device_, layout, nullptr);
}

TEST_F(DescriptorTest, InlineUniformBlocksHoldBytes) {
  VkDescriptorSetLayout layout = MakeLayout({{0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 32, kAll, nullptr},
                                             {1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16, kAll, nullptr}});
  VkDescriptorPoolInlineUniformBlockCreateInfo inlineInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO, nullptr, 2};
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 48};
  VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, &inlineInfo, 0, 1, 1, &size};
  VkDescriptorPool pool;
  ASSERT_EQ(vkCreateDescriptorPool(device_, &poolInfo, nullptr, &pool), VK_SUCCESS);
  VkDescriptorSet set;
  ASSERT_EQ(AllocateSet(pool, layout, &set), VK_SUCCESS);
  uint32_t values[2] = {0xdeadbeef, 0x12345678};
  VkWriteDescriptorSetInlineUniformBlock block{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK, nullptr,
                                               8, values};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &block, set, 1, 4, 8,
                             VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK};
  vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
  auto bytes = Set(set).inlineData();
  ASSERT_EQ(bytes.size(), 48u);
  uint32_t read[2];
  std::memcpy(read, bytes.data() + 32 + 4, 8);
  EXPECT_EQ(read[0], values[0]);
  EXPECT_EQ(read[1], values[1]);
  vkDestroyDescriptorPool(device_, pool, nullptr);
  vkDestroyDescriptorSetLayout(device_, layout, nullptr);
}

TEST_F(DescriptorTest, PipelineLayoutsOutliveTheirSetLayouts) {
  VkDescriptorSetLayout layout = MakeLayout({{0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, kAll, nullptr}});
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 64};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &layout, 1, &range};
  VkPipelineLayout pipelineLayout;
  ASSERT_EQ(vkCreatePipelineLayout(device_, &info, nullptr, &pipelineLayout), VK_SUCCESS);
  vkDestroyDescriptorSetLayout(device_, layout, nullptr);
  range.size = 6;  // not a multiple of 4
  VkPipelineLayout bad = VK_NULL_HANDLE;
  info.setLayoutCount = 0;
  EXPECT_NE(vkCreatePipelineLayout(device_, &info, nullptr, &bad), VK_SUCCESS);
  vkDestroyPipelineLayout(device_, pipelineLayout, nullptr);
}

TEST_F(DescriptorTest, UpdateTemplatesWriteWithStrides) {
  auto create = Proc<PFN_vkCreateDescriptorUpdateTemplate>("vkCreateDescriptorUpdateTemplate",
                                                           "vkCreateDescriptorUpdateTemplateKHR");
  auto update = Proc<PFN_vkUpdateDescriptorSetWithTemplate>("vkUpdateDescriptorSetWithTemplate",
                                                            "vkUpdateDescriptorSetWithTemplateKHR");
  auto destroy = Proc<PFN_vkDestroyDescriptorUpdateTemplate>("vkDestroyDescriptorUpdateTemplate",
                                                             "vkDestroyDescriptorUpdateTemplateKHR");
  if (create == nullptr || update == nullptr || destroy == nullptr)
    FAIL() << "neither Vulkan 1.1 nor VK_KHR_descriptor_update_template is advertised (the default device must offer it)";
  VkDescriptorSetLayout layout = MakeLayout({{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, kAll, nullptr},
                                             {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, kAll, nullptr}});
  VkDescriptorPool pool = MakePool(1, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4}});
  VkDescriptorSet set;
  ASSERT_EQ(AllocateSet(pool, layout, &set), VK_SUCCESS);
  VkBuffer buffer = CreateBuffer(1024, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  VkDeviceMemory memory = BindNewMemory(buffer);
  struct Entry {
    uint32_t tag;
    VkDescriptorBufferInfo info;
  } data[3] = {{1, {buffer, 16, 32}}, {2, {buffer, 64, 32}}, {3, {buffer, 128, 32}}};
  VkDescriptorUpdateTemplateEntry entry{0, 1, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(Entry, info),
                                        sizeof(Entry)};
  VkDescriptorUpdateTemplateCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  info.descriptorUpdateEntryCount = 1;
  info.pDescriptorUpdateEntries = &entry;
  info.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
  info.descriptorSetLayout = layout;
  VkDescriptorUpdateTemplate updateTemplate;
  ASSERT_EQ(create(device_, &info, nullptr, &updateTemplate), VK_SUCCESS);
  update(device_, set, updateTemplate, data);
  EXPECT_EQ(Set(set).Find(0, 1)->offset, 16u);
  EXPECT_EQ(Set(set).Find(1, 0)->offset, 64u);
  EXPECT_EQ(Set(set).Find(1, 1)->offset, 128u);
  EXPECT_EQ(Set(set).Find(0, 0)->buffer, nullptr);
  destroy(device_, updateTemplate, nullptr);
  vkDestroyDescriptorPool(device_, pool, nullptr);
  vkDestroyDescriptorSetLayout(device_, layout, nullptr);
  vkDestroyBuffer(device_, buffer, nullptr);
  vkFreeMemory(device_, memory, nullptr);
}

TEST_F(DescriptorTest, LayoutSupportQuery) {
  auto support = Proc<PFN_vkGetDescriptorSetLayoutSupport>("vkGetDescriptorSetLayoutSupport",
                                                           "vkGetDescriptorSetLayoutSupportKHR");
  if (support == nullptr) FAIL() << "neither Vulkan 1.1 nor VK_KHR_maintenance3 is advertised (the default device must offer it)";
  VkDescriptorSetLayoutBinding small{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4, kAll, nullptr};
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &small};
  VkDescriptorSetLayoutSupport result{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT};
  support(device_, &info, &result);
  EXPECT_EQ(result.supported, VK_TRUE);
  // Whatever maxPerSetDescriptors is, two bindings of UINT32_MAX descriptors exceed it.
  VkDescriptorSetLayoutBinding huge[2] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, UINT32_MAX, kAll, nullptr},
                                          {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, UINT32_MAX, kAll, nullptr}};
  info.bindingCount = 2;
  info.pBindings = huge;
  support(device_, &info, &result);
  EXPECT_EQ(result.supported, VK_FALSE);
}

// Update-after-bind layouts (issue 18): the layout and pool rules are checked, and a valid use allocates.
TEST_F(DescriptorTest, UpdateAfterBindLayoutRules) {
  const VkDescriptorBindingFlags uab[2] = {VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT, 0};
  VkDescriptorSetLayoutBindingFlagsCreateInfo flags{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
                                                     nullptr, 2, uab};
  VkDescriptorSetLayoutBinding bindings[2] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kAll, nullptr},
                                              {1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, kAll, nullptr}};
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, &flags, 0, 2, bindings};
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  // VUID-VkDescriptorSetLayoutCreateInfo-flags-03000: the layout must be UPDATE_AFTER_BIND_POOL.
  EXPECT_EQ(vkCreateDescriptorSetLayout(device_, &info, nullptr, &layout), VK_ERROR_VALIDATION_FAILED_EXT);
  // VUID-VkDescriptorSetLayoutCreateInfo-descriptorType-03001: no dynamic buffer beside an update-after-bind binding.
  info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT;
  bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
  EXPECT_EQ(vkCreateDescriptorSetLayout(device_, &info, nullptr, &layout), VK_ERROR_VALIDATION_FAILED_EXT);
  bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
  ASSERT_EQ(vkCreateDescriptorSetLayout(device_, &info, nullptr, &layout), VK_SUCCESS);
  // VUID-VkDescriptorSetAllocateInfo-pSetLayouts-03044: its sets come from an UPDATE_AFTER_BIND pool.
  const std::vector<VkDescriptorPoolSize> sizes = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4},
                                                   {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 4}};
  VkDescriptorPool plain = MakePool(2, sizes);
  VkDescriptorPool updateAfterBind = MakePool(2, sizes, VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT);
  VkDescriptorSet set = VK_NULL_HANDLE;
  EXPECT_EQ(AllocateSet(plain, layout, &set), VK_ERROR_VALIDATION_FAILED_EXT);
  EXPECT_EQ(set, VK_NULL_HANDLE);
  EXPECT_EQ(AllocateSet(updateAfterBind, layout, &set), VK_SUCCESS);
  vkDestroyDescriptorPool(device_, plain, nullptr);
  vkDestroyDescriptorPool(device_, updateAfterBind, nullptr);
  vkDestroyDescriptorSetLayout(device_, layout, nullptr);
}

}  // namespace
}  // namespace crashtest::test
