// Device memory through the loader: mapping, heap accounting, binding rules, requirements, device addresses.
#include <set>

#include "device/resources.h"
#include "memory/device_memory.h"
#include "memory_test_env.h"

namespace crashtest::test {
namespace {

TEST_F(MemoryTest, FreshMemoryIsZeroAndMapWriteUnmapMapReadRoundTrips) {
  uint32_t type = FindType(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  ASSERT_NE(type, UINT32_MAX);
  VkDeviceMemory memory = Allocate(8192, type);
  ASSERT_NE(memory, VK_NULL_HANDLE);
  void* mapped = nullptr;
  ASSERT_EQ(vkMapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &mapped), VK_SUCCESS);
  auto* bytes = static_cast<uint8_t*>(mapped);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(mapped) % properties_.limits.minMemoryMapAlignment, 0u);
  for (size_t i = 0; i < 8192; ++i) ASSERT_EQ(bytes[i], 0) << "byte " << i;
  for (size_t i = 0; i < 8192; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + 3);
  vkUnmapMemory(device_, memory);

  ASSERT_EQ(vkMapMemory(device_, memory, 1000, 100, 0, &mapped), VK_SUCCESS);
  bytes = static_cast<uint8_t*>(mapped);
  for (size_t i = 0; i < 100; ++i) ASSERT_EQ(bytes[i], static_cast<uint8_t>((i + 1000) * 7 + 3));
  vkUnmapMemory(device_, memory);
  vkFreeMemory(device_, memory, nullptr);
}

TEST_F(MemoryTest, MappingTwiceOrDeviceOnlyMemoryFails) {
  VkDeviceMemory memory = Allocate(4096, FindType(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT));
  void* first = nullptr;
  void* second = nullptr;
  ASSERT_EQ(vkMapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &first), VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(vkMapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &second), VK_ERROR_MEMORY_MAP_FAILED);
  const std::string log = ::testing::internal::GetCapturedStderr();
  // "memory must not be currently host mapped" is VUID-vkMapMemory-memory-00678 (issue 18: it said 00682).
  EXPECT_NE(log.find("VUID-vkMapMemory-memory-00678"), std::string::npos) << log;
  vkUnmapMemory(device_, memory);
  EXPECT_EQ(vkMapMemory(device_, memory, 4096, VK_WHOLE_SIZE, 0, &second), VK_ERROR_MEMORY_MAP_FAILED);
  EXPECT_EQ(vkMapMemory(device_, memory, 4000, 200, 0, &second), VK_ERROR_MEMORY_MAP_FAILED);
  vkFreeMemory(device_, memory, nullptr);

  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    if (memory_.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) continue;
    VkDeviceMemory local = Allocate(4096, i);
    EXPECT_EQ(vkMapMemory(device_, local, 0, VK_WHOLE_SIZE, 0, &second), VK_ERROR_MEMORY_MAP_FAILED) << "type " << i;
    vkFreeMemory(device_, local, nullptr);
  }
}

TEST_F(MemoryTest, FlushAndInvalidateCheckTheirRanges) {
  VkDeviceSize atom = properties_.limits.nonCoherentAtomSize;
  VkDeviceMemory memory = Allocate(atom * 8, FindType(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT));
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, memory, 0, VK_WHOLE_SIZE};
  EXPECT_NE(vkFlushMappedMemoryRanges(device_, 1, &range), VK_SUCCESS) << "not mapped";
  void* mapped = nullptr;
  ASSERT_EQ(vkMapMemory(device_, memory, atom * 2, VK_WHOLE_SIZE, 0, &mapped), VK_SUCCESS);
  range.offset = atom * 2;
  EXPECT_EQ(vkFlushMappedMemoryRanges(device_, 1, &range), VK_SUCCESS);
  EXPECT_EQ(vkInvalidateMappedMemoryRanges(device_, 1, &range), VK_SUCCESS);
  range.size = atom;
  EXPECT_EQ(vkFlushMappedMemoryRanges(device_, 1, &range), VK_SUCCESS);
  range.offset = 0;  // before the mapped range
  EXPECT_NE(vkFlushMappedMemoryRanges(device_, 1, &range), VK_SUCCESS);
  if (atom > 1) {
    range.offset = atom * 2 + 1;  // not a multiple of nonCoherentAtomSize
    EXPECT_NE(vkInvalidateMappedMemoryRanges(device_, 1, &range), VK_SUCCESS);
  }
  range.offset = atom * 7;  // reaches the end: any size is allowed
  range.size = atom;
  EXPECT_EQ(vkFlushMappedMemoryRanges(device_, 1, &range), VK_SUCCESS);
  VkDeviceSize committed = 0;
  vkGetDeviceMemoryCommitment(device_, memory, &committed);
  EXPECT_EQ(committed, atom * 8);
  vkFreeMemory(device_, memory, nullptr);  // implicitly unmaps
}

TEST_F(SmallHeapsTest, HeapExhaustionFailsAndTheDeviceStaysUsable) {
  ASSERT_EQ(memory_.memoryHeaps[0].size, 1048576u);
  uint32_t local = FindType(~0u, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  VkResult result;
  VkDeviceMemory big = Allocate(768 * 1024, local, nullptr, &result);
  ASSERT_EQ(result, VK_SUCCESS);
  VkDeviceMemory tooBig = Allocate(512 * 1024, local, nullptr, &result);
  EXPECT_EQ(result, VK_ERROR_OUT_OF_DEVICE_MEMORY);
  EXPECT_EQ(tooBig, VK_NULL_HANDLE);
  EXPECT_EQ(Allocate(2 * 1048576, local, nullptr, &result), VK_NULL_HANDLE);
  EXPECT_EQ(result, VK_ERROR_OUT_OF_DEVICE_MEMORY);
  VkDeviceMemory rest = Allocate(256 * 1024, local, nullptr, &result);
  EXPECT_EQ(result, VK_SUCCESS) << "exactly the heap's remaining bytes fit";
  vkFreeMemory(device_, big, nullptr);
  VkDeviceMemory again = Allocate(512 * 1024, local, nullptr, &result);
  EXPECT_EQ(result, VK_SUCCESS) << "freeing returns the bytes to the heap";

  // Other heaps are accounted separately, and the device works as before.
  VkBuffer buffer = CreateBuffer(4096, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  VkDeviceMemory host = BindNewMemory(buffer);
  void* mapped = nullptr;
  ASSERT_EQ(vkMapMemory(device_, host, 0, VK_WHOLE_SIZE, 0, &mapped), VK_SUCCESS);
  static_cast<uint8_t*>(mapped)[4095] = 42;
  vkUnmapMemory(device_, host);
  vkDestroyBuffer(device_, buffer, nullptr);
  vkFreeMemory(device_, host, nullptr);
  vkFreeMemory(device_, again, nullptr);
  vkFreeMemory(device_, rest, nullptr);
}

TEST_F(SmallHeapsTest, TwoDevicesShareTheHeap) {
  // A second device of the same physical device draws from the same 1 MiB heap.
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  VkDevice other = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDevice(physical_, &info, nullptr, &other), VK_SUCCESS);
  uint32_t local = FindType(~0u, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  VkResult result;
  VkDeviceMemory mine = Allocate(768 * 1024, local, nullptr, &result);
  ASSERT_EQ(result, VK_SUCCESS);
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, 512 * 1024, local};
  VkDeviceMemory theirs = VK_NULL_HANDLE;
  EXPECT_EQ(vkAllocateMemory(other, &allocate, nullptr, &theirs), VK_ERROR_OUT_OF_DEVICE_MEMORY);
  vkFreeMemory(device_, mine, nullptr);
  EXPECT_EQ(vkAllocateMemory(other, &allocate, nullptr, &theirs), VK_SUCCESS);
  vkFreeMemory(other, theirs, nullptr);
  vkDestroyDevice(other, nullptr);
}

TEST_F(SmallHeapsTest, MaxMemoryAllocationCountIsEnforced) {
  ASSERT_EQ(properties_.limits.maxMemoryAllocationCount, 8u);
  uint32_t host = FindType(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  std::vector<VkDeviceMemory> memories;
  for (int i = 0; i < 8; ++i) memories.push_back(Allocate(64, host));
  for (VkDeviceMemory m : memories) ASSERT_NE(m, VK_NULL_HANDLE);
  VkResult result;
  EXPECT_EQ(Allocate(64, host, nullptr, &result), VK_NULL_HANDLE);
  EXPECT_EQ(result, VK_ERROR_TOO_MANY_OBJECTS);
  vkFreeMemory(device_, memories.back(), nullptr);
  memories.back() = Allocate(64, host, nullptr, &result);
  EXPECT_EQ(result, VK_SUCCESS);
  for (VkDeviceMemory m : memories) vkFreeMemory(device_, m, nullptr);
}

TEST_F(SmallHeapsTest, SamplerCountIsEnforced) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  std::vector<VkSampler> samplers(4);
  for (VkSampler& s : samplers) ASSERT_EQ(vkCreateSampler(device_, &info, nullptr, &s), VK_SUCCESS);
  VkSampler extra = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateSampler(device_, &info, nullptr, &extra), VK_ERROR_TOO_MANY_OBJECTS);
  vkDestroySampler(device_, samplers[0], nullptr);
  EXPECT_EQ(vkCreateSampler(device_, &info, nullptr, &samplers[0]), VK_SUCCESS);
  for (VkSampler s : samplers) vkDestroySampler(device_, s, nullptr);
}

TEST_F(SmallHeapsTest, MemoryRequirementsFollowTheLimits) {
  struct Case {
    VkBufferUsageFlags usage;
    VkDeviceSize minimum;
  } cases[] = {
      {VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1},
      {VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, properties_.limits.minUniformBufferOffsetAlignment},
      {VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, properties_.limits.minStorageBufferOffsetAlignment},
      {VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, properties_.limits.minTexelBufferOffsetAlignment},
  };
  for (const Case& c : cases) {
    VkBuffer buffer = CreateBuffer(1000, c.usage);
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device_, buffer, &requirements);
    EXPECT_EQ(requirements.alignment % c.minimum, 0u) << "usage " << c.usage;
    EXPECT_GE(requirements.size, 1000u);
    EXPECT_EQ(requirements.size % requirements.alignment, 0u);
    EXPECT_EQ(requirements.memoryTypeBits, (1u << memory_.memoryTypeCount) - 1);
    vkDestroyBuffer(device_, buffer, nullptr);
  }
  VkImage image = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, {100, 60, 1}, 3, 2);
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(device_, image, &requirements);
  VkImageSubresource last{VK_IMAGE_ASPECT_COLOR_BIT, 2, 1};
  VkSubresourceLayout layout;
  vkGetImageSubresourceLayout(device_, image, &last, &layout);
  EXPECT_GE(requirements.size, layout.offset + layout.size);
  EXPECT_EQ(requirements.size % requirements.alignment, 0u);
  vkDestroyImage(device_, image, nullptr);
}

TEST_F(MemoryTest, BindingRulesAreChecked) {
  VkBuffer buffer = CreateBuffer(1024, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device_, buffer, &requirements);
  uint32_t type = FindType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  VkDeviceMemory memory = Allocate(requirements.size + requirements.alignment * 2, type);
  EXPECT_NE(vkBindBufferMemory(device_, buffer, memory, requirements.alignment / 2), VK_SUCCESS) << "misaligned";
  EXPECT_NE(vkBindBufferMemory(device_, buffer, memory, requirements.alignment * 3), VK_SUCCESS) << "too small";
  EXPECT_EQ(crashtest::FromHandle(buffer)->data(), nullptr) << "a failed bind leaves the buffer unbound";
  ASSERT_EQ(vkBindBufferMemory(device_, buffer, memory, requirements.alignment), VK_SUCCESS);
  EXPECT_NE(vkBindBufferMemory(device_, buffer, memory, 0), VK_SUCCESS) << "bound twice";

  // What the execution engine reads: the buffer's bytes are the memory's, from the bound offset on.
  const Buffer* object = crashtest::FromHandle(buffer);
  EXPECT_EQ(object->memory(), crashtest::FromHandle(memory));
  EXPECT_EQ(object->memoryOffset(), requirements.alignment);
  EXPECT_EQ(object->data(), crashtest::FromHandle(memory)->data() + requirements.alignment);
  void* mapped = nullptr;
  ASSERT_EQ(vkMapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &mapped), VK_SUCCESS);
  EXPECT_EQ(static_cast<std::byte*>(mapped) + requirements.alignment, object->data());
  vkUnmapMemory(device_, memory);

  VkImage image = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, {64, 64, 1});
  VkMemoryRequirements imageRequirements;
  vkGetImageMemoryRequirements(device_, image, &imageRequirements);
  EXPECT_NE(vkBindImageMemory(device_, image, memory, 0), VK_SUCCESS) << "the memory is too small for the image";
  VkDeviceMemory imageMemory = Allocate(imageRequirements.size * 2, FindType(imageRequirements.memoryTypeBits, 0));
  EXPECT_NE(vkBindImageMemory(device_, image, imageMemory, imageRequirements.alignment / 2), VK_SUCCESS);
  EXPECT_EQ(vkBindImageMemory(device_, image, imageMemory, imageRequirements.alignment), VK_SUCCESS);
  EXPECT_EQ(crashtest::FromHandle(image)->data(),
            crashtest::FromHandle(imageMemory)->data() + imageRequirements.alignment);

  vkDestroyImage(device_, image, nullptr);
  vkDestroyBuffer(device_, buffer, nullptr);
  vkFreeMemory(device_, imageMemory, nullptr);
  vkFreeMemory(device_, memory, nullptr);
}

TEST_F(MemoryTest, DedicatedAllocationsBindOnlyToTheirResource) {
  VkBuffer mine = CreateBuffer(4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  VkBuffer other = CreateBuffer(4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  VkMemoryDedicatedAllocateInfo dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
  dedicated.buffer = mine;
  VkDeviceMemory memory = Allocate(8192, FindType(~0u, 0), &dedicated);
  EXPECT_NE(vkBindBufferMemory(device_, other, memory, 0), VK_SUCCESS);
  EXPECT_EQ(vkBindBufferMemory(device_, mine, memory, 0), VK_SUCCESS);
  vkDestroyBuffer(device_, mine, nullptr);
  vkDestroyBuffer(device_, other, nullptr);
  vkFreeMemory(device_, memory, nullptr);
}

TEST_F(MemoryTest, DeviceAddressesAreUniqueStableAndOffsetByTheBinding) {
  std::set<VkDeviceAddress> starts;
  std::vector<VkDeviceMemory> memories;
  for (int i = 0; i < 16; ++i) {
    memories.push_back(Allocate(100000, FindType(~0u, 0)));
    VkDeviceAddress address = crashtest::FromHandle(memories.back())->address();
    EXPECT_NE(address, 0u);
    EXPECT_LT(address, VkDeviceAddress{1} << 48);
    // Ranges never overlap.
    auto next = starts.lower_bound(address);
    if (next != starts.end()) {
      EXPECT_GE(*next, address + 100000);
    }
    if (next != starts.begin()) {
      EXPECT_LE(*std::prev(next) + 100000, address);
    }
    starts.insert(address);
  }
  // A freed allocation's address is not handed out again.
  VkDeviceAddress freed = crashtest::FromHandle(memories[3])->address();
  vkFreeMemory(device_, memories[3], nullptr);
  memories[3] = Allocate(100000, FindType(~0u, 0));
  EXPECT_EQ(starts.count(crashtest::FromHandle(memories[3])->address()), 0u);
  EXPECT_NE(crashtest::FromHandle(memories[3])->address(), freed);

  VkBuffer buffer = CreateBuffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  EXPECT_EQ(crashtest::FromHandle(buffer)->address(), 0u) << "unbound";
  ASSERT_EQ(vkBindBufferMemory(device_, buffer, memories[0], 512), VK_SUCCESS);
  EXPECT_EQ(crashtest::FromHandle(buffer)->address(), crashtest::FromHandle(memories[0])->address() + 512);
  vkDestroyBuffer(device_, buffer, nullptr);
  for (VkDeviceMemory m : memories) vkFreeMemory(device_, m, nullptr);
}

TEST_F(MemoryTest, BufferDeviceAddressCommands) {
  auto getAddress = Proc<PFN_vkGetBufferDeviceAddress>("vkGetBufferDeviceAddress", "vkGetBufferDeviceAddressKHR");
  auto getMemoryCapture = Proc<PFN_vkGetDeviceMemoryOpaqueCaptureAddress>(
      "vkGetDeviceMemoryOpaqueCaptureAddress", "vkGetDeviceMemoryOpaqueCaptureAddressKHR");
  auto getBufferCapture =
      Proc<PFN_vkGetBufferOpaqueCaptureAddress>("vkGetBufferOpaqueCaptureAddress", "vkGetBufferOpaqueCaptureAddressKHR");
  if (getAddress == nullptr || getMemoryCapture == nullptr || getBufferCapture == nullptr)
    FAIL() << "the device advertises neither Vulkan 1.2 nor VK_KHR_buffer_device_address (the default device must offer it)";

  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT | VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT;
  VkDeviceMemory memory = Allocate(65536, FindType(~0u, 0), &flags);
  VkBuffer buffer = CreateBuffer(1024, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
  ASSERT_EQ(vkBindBufferMemory(device_, buffer, memory, 1024), VK_SUCCESS);
  VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, nullptr, buffer};
  VkDeviceMemoryOpaqueCaptureAddressInfo memoryInfo{VK_STRUCTURE_TYPE_DEVICE_MEMORY_OPAQUE_CAPTURE_ADDRESS_INFO,
                                                    nullptr, memory};
  uint64_t captured = getMemoryCapture(device_, &memoryInfo);
  EXPECT_NE(captured, 0u);
  EXPECT_EQ(getAddress(device_, &info), captured + 1024);
  EXPECT_EQ(getAddress(device_, &info), getAddress(device_, &info)) << "stable";
  EXPECT_EQ(getBufferCapture(device_, &info), captured + 1024);

  // A buffer with SHADER_DEVICE_ADDRESS usage needs DEVICE_ADDRESS memory.
  VkBuffer strict = CreateBuffer(64, VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
  VkDeviceMemory plain = Allocate(4096, FindType(~0u, 0));
  EXPECT_NE(vkBindBufferMemory(device_, strict, plain, 0), VK_SUCCESS);

  // Capture/replay: the freed allocation's address is replayed on request, and refused while in use.
  VkMemoryOpaqueCaptureAddressAllocateInfo replay{VK_STRUCTURE_TYPE_MEMORY_OPAQUE_CAPTURE_ADDRESS_ALLOCATE_INFO};
  replay.opaqueCaptureAddress = captured;
  flags.pNext = &replay;
  VkResult result;
  EXPECT_EQ(Allocate(65536, FindType(~0u, 0), &flags, &result), VK_NULL_HANDLE);
  EXPECT_EQ(result, VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS);
  vkDestroyBuffer(device_, buffer, nullptr);
  vkFreeMemory(device_, memory, nullptr);
  VkDeviceMemory replayed = Allocate(65536, FindType(~0u, 0), &flags, &result);
  ASSERT_EQ(result, VK_SUCCESS);
  memoryInfo.memory = replayed;
  EXPECT_EQ(getMemoryCapture(device_, &memoryInfo), captured);
  vkFreeMemory(device_, replayed, nullptr);
  vkFreeMemory(device_, plain, nullptr);
  vkDestroyBuffer(device_, strict, nullptr);
}

TEST_F(SmallHeapsTest, MemoryBudgetReportsLiveUsage) {
  if (!HasExtension("VK_EXT_memory_budget")) FAIL() << "VK_EXT_memory_budget is not advertised (the default device must offer it)";
  auto query = [&] {
    VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
    VkPhysicalDeviceMemoryProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2, &budget};
    vkGetPhysicalDeviceMemoryProperties2(physical_, &properties);
    return budget;
  };
  VkDeviceSize before = query().heapUsage[0];
  VkDeviceMemory memory = Allocate(300000, FindType(~0u, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT));
  auto during = query();
  EXPECT_EQ(during.heapUsage[0], before + 300000);
  EXPECT_EQ(during.heapBudget[0], memory_.memoryHeaps[0].size);
  EXPECT_EQ(during.heapBudget[memory_.memoryHeapCount], 0u);
  vkFreeMemory(device_, memory, nullptr);
  EXPECT_EQ(query().heapUsage[0], before);
}

TEST_F(MemoryTest, RequirementQueries2AndDeviceRequirements) {
  auto buffer2 = Proc<PFN_vkGetBufferMemoryRequirements2>("vkGetBufferMemoryRequirements2",
                                                           "vkGetBufferMemoryRequirements2KHR");
  auto deviceBuffer = Proc<PFN_vkGetDeviceBufferMemoryRequirements>("vkGetDeviceBufferMemoryRequirements",
                                                                    "vkGetDeviceBufferMemoryRequirementsKHR");
  auto deviceImage = Proc<PFN_vkGetDeviceImageMemoryRequirements>("vkGetDeviceImageMemoryRequirements",
                                                                  "vkGetDeviceImageMemoryRequirementsKHR");
  if (buffer2 == nullptr) FAIL() << "neither Vulkan 1.1 nor VK_KHR_get_memory_requirements2 is advertised (the default device must offer it)";
  VkBufferCreateInfo create{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  create.size = 3000;
  create.usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
  VkBuffer buffer = CreateBuffer(create.size, create.usage);
  VkMemoryDedicatedRequirements dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
  dedicated.prefersDedicatedAllocation = VK_TRUE;
  VkMemoryRequirements2 requirements{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, &dedicated};
  VkBufferMemoryRequirementsInfo2 info{VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2, nullptr, buffer};
  buffer2(device_, &info, &requirements);
  VkMemoryRequirements plain;
  vkGetBufferMemoryRequirements(device_, buffer, &plain);
  EXPECT_EQ(requirements.memoryRequirements.size, plain.size);
  EXPECT_EQ(requirements.memoryRequirements.alignment, plain.alignment);
  EXPECT_EQ(dedicated.prefersDedicatedAllocation, VK_FALSE);
  EXPECT_EQ(dedicated.requiresDedicatedAllocation, VK_FALSE);
  if (deviceBuffer != nullptr && deviceImage != nullptr) {
    VkDeviceBufferMemoryRequirements query{VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS, nullptr, &create};
    VkMemoryRequirements2 fromInfo{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
    deviceBuffer(device_, &query, &fromInfo);
    EXPECT_EQ(fromInfo.memoryRequirements.size, plain.size);
    EXPECT_EQ(fromInfo.memoryRequirements.alignment, plain.alignment);
    VkImageCreateInfo imageInfo{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    imageInfo.imageType = VK_IMAGE_TYPE_2D;
    imageInfo.format = VK_FORMAT_R16G16B16A16_SFLOAT;
    imageInfo.extent = {33, 17, 1};
    imageInfo.mipLevels = 2;
    imageInfo.arrayLayers = 3;
    imageInfo.samples = VK_SAMPLE_COUNT_1_BIT;
    imageInfo.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
    VkImage image = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateImage(device_, &imageInfo, nullptr, &image), VK_SUCCESS);
    VkMemoryRequirements imagePlain;
    vkGetImageMemoryRequirements(device_, image, &imagePlain);
    VkDeviceImageMemoryRequirements imageQuery{VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS, nullptr, &imageInfo};
    deviceImage(device_, &imageQuery, &fromInfo);
    EXPECT_EQ(fromInfo.memoryRequirements.size, imagePlain.size);
    vkDestroyImage(device_, image, nullptr);
  }
  vkDestroyBuffer(device_, buffer, nullptr);
}

TEST_F(MemoryTest, BindMemory2BindsEveryResource) {
  auto bindBuffers = Proc<PFN_vkBindBufferMemory2>("vkBindBufferMemory2", "vkBindBufferMemory2KHR");
  auto bindImages = Proc<PFN_vkBindImageMemory2>("vkBindImageMemory2", "vkBindImageMemory2KHR");
  if (bindBuffers == nullptr || bindImages == nullptr)
    FAIL() << "neither Vulkan 1.1 nor VK_KHR_bind_memory2 is advertised (the default device must offer it)";
  VkBuffer a = CreateBuffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkBuffer b = CreateBuffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkImage image = CreateImage(VK_FORMAT_R8_UNORM, {16, 16, 1});
  VkDeviceMemory memory = Allocate(65536, FindType(~0u, 0));
  VkBindBufferMemoryInfo buffers[2] = {{VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO, nullptr, a, memory, 0},
                                       {VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO, nullptr, b, memory, 256}};
  ASSERT_EQ(bindBuffers(device_, 2, buffers), VK_SUCCESS);
  VkBindImageMemoryInfo images{VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO, nullptr, image, memory, 4096};
  ASSERT_EQ(bindImages(device_, 1, &images), VK_SUCCESS);
  EXPECT_EQ(crashtest::FromHandle(b)->memoryOffset(), 256u);
  EXPECT_EQ(crashtest::FromHandle(image)->memoryOffset(), 4096u);
  vkDestroyBuffer(device_, a, nullptr);
  vkDestroyBuffer(device_, b, nullptr);
  vkDestroyImage(device_, image, nullptr);
  vkFreeMemory(device_, memory, nullptr);
}

}  // namespace
}  // namespace crashtest::test
