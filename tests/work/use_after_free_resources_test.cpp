// Destroying images, views, samplers and buffers that draws and dispatches use (issue 18), through the real loader.
// A GPU answers a use after free with a page fault, not a crashed process: the queue raises a device fault
// (READ_INVALID / WRITE_INVALID at the resource's address, described as a use after free) when a command — a
// copy, blit or clear of an image, a dispatch or draw whose descriptors name it, a draw's vertex, index or
// indirect buffer, a render pass instance's attachments — reaches a destroyed resource or one whose memory was
// freed, and never reads freed host memory. Before, each of these read freed memory (ASan: heap-use-after-free;
// plain builds: a crash or a silently successful submission).
#include <initializer_list>
#include <string>

#include "use_after_free_fixture.h"

namespace crashtest::test {
namespace {

// --- Transfers of images ---

// The source image of a copy was destroyed before the submission (its object freed at once before).
TEST_F(UseAfterFreeResourcesTest, CopyingFromADestroyedImageRaisesAReadFault) {
  ImageResource* image = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  HostBuffer* readback = CreateHostBuffer(256);
  VkCommandBuffer cb = RecordCommands([&](VkCommandBuffer c) {
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {8, 8, 1};
    vkCmdCopyImageToBuffer(c, image->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback->buffer, 1, &region);
  });
  vkDestroyImageView(device_, image->view, nullptr);
  vkDestroyImage(device_, image->image, nullptr);
  image->view = VK_NULL_HANDLE;
  image->image = VK_NULL_HANDLE;
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(SubmitRecorded(cb), VK_SUCCESS);
  ExpectUseAfterFree({"use after free: read of image", "VUID-vkDestroyImage-image-01000"});
}

// The memory under a cleared image was freed before the submission (unmapped: the clear crashed before).
TEST_F(UseAfterFreeResourcesTest, ClearingAnImageWhoseMemoryWasFreedRaisesAWriteFault) {
  ImageResource* image = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 512, 512, VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  vkFreeMemory(device_, image->memory, nullptr);
  image->memory = VK_NULL_HANDLE;
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(Submit([&](VkCommandBuffer cb) {
              VkClearColorValue white{{1, 1, 1, 1}};
              VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
              vkCmdClearColorImage(cb, image->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &white, 1, &all);
            }),
            VK_SUCCESS);
  ExpectUseAfterFree({"use after free: write of image", "VUID-vkFreeMemory-memory-00677"});
}

// The destination of a pending blit is destroyed while the submission waits (freed under the worker before).
TEST_F(UseAfterFreeResourcesTest, DestroyingTheDestinationOfAPendingBlitRaisesAWriteFault) {
  ImageResource* src = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  ImageResource* dst = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  ExpectFaultWhenDestroyedWhilePending(
      [&](VkCommandBuffer cb) {
        VkImageBlit blit{};
        blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        blit.srcOffsets[1] = blit.dstOffsets[1] = {8, 8, 1};
        vkCmdBlitImage(cb, src->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst->image,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
      },
      [&] {
        vkDestroyImageView(device_, dst->view, nullptr);
        vkDestroyImage(device_, dst->image, nullptr);
        vkFreeMemory(device_, dst->memory, nullptr);
        *dst = ImageResource{};
      },
      {"use after free: write of image", "VUID-vkDestroyImage-image-01000"});
}

// --- Descriptors of dispatches ---

// A storage buffer a dispatch's descriptor names was destroyed before the submission.
TEST_F(UseAfterFreeResourcesTest, DispatchingWithADestroyedStorageBufferRaisesAFault) {
  ComputeJob saxpy(device_, "saxpy.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  HostBuffer* x = CreateHostBuffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  HostBuffer* y = CreateHostBuffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  saxpy.WriteBuffer(0, x->buffer);
  saxpy.WriteBuffer(1, y->buffer);
  VkCommandBuffer cb = RecordCommands([&](VkCommandBuffer c) {
    saxpy.Bind(c, 64);
    vkCmdDispatch(c, 1, 1, 1);
  });
  vkDestroyBuffer(device_, y->buffer, nullptr);
  y->buffer = VK_NULL_HANDLE;
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(SubmitRecorded(cb), VK_SUCCESS);
  ExpectUseAfterFree({"use after free: read of buffer", "VUID-vkDestroyBuffer-buffer-00922", "(vkCmdDispatch)"});
}

// The memory under a dispatch's storage buffer was freed (unmapped: the shader's reads crashed before).
TEST_F(UseAfterFreeResourcesTest, DispatchingWithADescriptorWhoseMemoryWasFreedRaisesAFault) {
  ComputeJob saxpy(device_, "saxpy.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  HostBuffer* x = CreateHostBuffer(kLarge, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  HostBuffer* y = CreateHostBuffer(kLarge, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  saxpy.WriteBuffer(0, x->buffer);
  saxpy.WriteBuffer(1, y->buffer);
  vkFreeMemory(device_, x->memory, nullptr);
  x->memory = VK_NULL_HANDLE;
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(Submit([&](VkCommandBuffer cb) {
              saxpy.Bind(cb, static_cast<uint32_t>(kLarge / 4));
              vkCmdDispatch(cb, static_cast<uint32_t>(kLarge / 4 / 64), 1, 1);
            }),
            VK_SUCCESS);
  ExpectUseAfterFree({"use after free: read of buffer", "VUID-vkFreeMemory-memory-00677"});
}

// The sampled image view, the image under a live view, and the sampler of a combined image sampler, each destroyed
// before the submission.
class SampledDescriptorTest : public UseAfterFreeResourcesTest {
 protected:
  enum class Destroy { kView, kImage, kSampler };
  void RunBlur(Destroy what, std::initializer_list<const char*> expected) {
    ComputeJob blur(device_, "image_blur_sampled.comp",
                    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE});
    ImageResource* src = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, VK_IMAGE_USAGE_SAMPLED_BIT);
    ImageResource* dst = CreateImage(VK_FORMAT_R32G32B32A32_SFLOAT, 8, 8, VK_IMAGE_USAGE_STORAGE_BIT);
    VkSampler sampler = CreateSampler();
    blur.WriteImage(0, src->view, sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    blur.WriteImage(1, dst->view, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL);
    VkCommandBuffer cb = RecordCommands([&](VkCommandBuffer c) {
      blur.Bind(c, 0);
      vkCmdDispatch(c, 1, 1, 1);
    });
    if (what == Destroy::kView) {
      vkDestroyImageView(device_, src->view, nullptr);
      src->view = VK_NULL_HANDLE;
    } else if (what == Destroy::kImage) {
      vkDestroyImage(device_, src->image, nullptr);
      src->image = VK_NULL_HANDLE;
    } else {
      vkDestroySampler(device_, sampler, nullptr);
      sampler = VK_NULL_HANDLE;
    }
    ::testing::internal::CaptureStderr();
    ASSERT_EQ(SubmitRecorded(cb), VK_SUCCESS);
    ExpectUseAfterFree(expected);
    if (sampler != VK_NULL_HANDLE) vkDestroySampler(device_, sampler, nullptr);
  }
};

TEST_F(SampledDescriptorTest, SamplingADestroyedImageViewRaisesAFault) {
  RunBlur(Destroy::kView, {"use after free: read of image view", "VUID-vkDestroyImageView-imageView-01026"});
}

TEST_F(SampledDescriptorTest, SamplingThroughAViewWhoseImageWasDestroyedRaisesAFault) {
  RunBlur(Destroy::kImage, {"use after free: read of image", "(through image view", "VUID-vkDestroyImage-image-01000"});
}

TEST_F(SampledDescriptorTest, SamplingWithADestroyedSamplerRaisesAFault) {
  RunBlur(Destroy::kSampler, {"use after free: read of sampler", "VUID-vkDestroySampler-sampler-01082"});
}

// A storage texel buffer's view destroyed while the dispatch is pending (freed under the worker before).
TEST_F(UseAfterFreeResourcesTest, DestroyingAPendingTexelBufferViewRaisesAFault) {
  ComputeJob texels(device_, "texel_buffers.comp",
                    {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER});
  HostBuffer* lut = CreateHostBuffer(256, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  HostBuffer* values = CreateHostBuffer(1024, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
  VkBufferView lutView = CreateBufferView(lut->buffer);
  VkBufferView valuesView = CreateBufferView(values->buffer);
  texels.WriteTexelBuffer(0, lutView);
  texels.WriteTexelBuffer(1, valuesView);
  ExpectFaultWhenDestroyedWhilePending(
      [&](VkCommandBuffer cb) {
        texels.Bind(cb, 0);
        vkCmdDispatch(cb, 1, 1, 1);
      },
      [&] { vkDestroyBufferView(device_, valuesView, nullptr); },
      {"use after free: read of buffer view", "VUID-vkDestroyBufferView-bufferView-00936"});
  vkDestroyBufferView(device_, lutView, nullptr);
}

// --- Vertex, index and indirect buffers, attachments ---

TEST_F(UseAfterFreeResourcesTest, DrawingFromADestroyedVertexBufferRaisesAFault) {
  DrawJob job(device_);
  HostBuffer* vertices = Triangle();
  ExpectFaultWhenDestroyedWhilePending(
      [&](VkCommandBuffer cb) {
        RecordDraw(cb, job, vertices->buffer, [](VkCommandBuffer c) { vkCmdDraw(c, 3, 1, 0, 0); });
      },
      [&] { DestroyBuffer(vertices); },
      {"use after free: read of buffer", "VUID-vkDestroyBuffer-buffer-00922", "(vkCmdDraw)"});
}

// The index buffer's memory is freed while the draw is pending. (Freed before the recording, a later allocation
// may reuse the memory object's address, and the stale handle is then not recognisable: live_objects.h.)
TEST_F(UseAfterFreeResourcesTest, DrawingWithAnIndexBufferWhoseMemoryWasFreedRaisesAFault) {
  DrawJob job(device_);
  HostBuffer* vertices = Triangle();
  HostBuffer* indices = CreateHostBuffer(kLarge, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  ExpectFaultWhenDestroyedWhilePending(
      [&](VkCommandBuffer cb) {
        RecordDraw(cb, job, vertices->buffer, [&](VkCommandBuffer c) {
          vkCmdBindIndexBuffer(c, indices->buffer, 0, VK_INDEX_TYPE_UINT32);
          vkCmdDrawIndexed(c, 3 * 1000, 1, 0, 0, 0);
        });
      },
      [&] { FreeMemory(indices); },
      {"use after free: read of buffer", "VUID-vkFreeMemory-memory-00677", "(vkCmdDrawIndexed)"});
}

TEST_F(UseAfterFreeResourcesTest, DrawingWithADestroyedIndirectBufferRaisesAFault) {
  DrawJob job(device_);
  HostBuffer* vertices = Triangle();
  HostBuffer* indirect = CreateHostBuffer(64, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  const VkDrawIndirectCommand command{3, 1, 0, 0};
  std::memcpy(indirect->mapped, &command, sizeof command);
  ExpectFaultWhenDestroyedWhilePending(
      [&](VkCommandBuffer cb) {
        RecordDraw(cb, job, vertices->buffer,
                   [&](VkCommandBuffer c) { vkCmdDrawIndirect(c, indirect->buffer, 0, 1, 16); });
      },
      [&] { DestroyBuffer(indirect); },
      {"use after free: read of buffer", "VUID-vkDestroyBuffer-buffer-00922", "(vkCmdDrawIndirect)"});
}

TEST_F(UseAfterFreeResourcesTest, DispatchingWithADestroyedIndirectBufferRaisesAFault) {
  ComputeJob saxpy(device_, "saxpy.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  HostBuffer* x = CreateHostBuffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  HostBuffer* y = CreateHostBuffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  HostBuffer* indirect = CreateHostBuffer(64, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  const VkDispatchIndirectCommand groups{1, 1, 1};
  std::memcpy(indirect->mapped, &groups, sizeof groups);
  saxpy.WriteBuffer(0, x->buffer);
  saxpy.WriteBuffer(1, y->buffer);
  ExpectFaultWhenDestroyedWhilePending(
      [&](VkCommandBuffer cb) {
        saxpy.Bind(cb, 64);
        vkCmdDispatchIndirect(cb, indirect->buffer, 0);
      },
      [&] { DestroyBuffer(indirect); },
      {"use after free: read of buffer", "(vkCmdDispatchIndirect)"});
}

// The colour attachment's view was destroyed before the submission: the render pass instance faults as it begins.
TEST_F(UseAfterFreeResourcesTest, RenderingIntoADestroyedAttachmentRaisesAWriteFault) {
  ImageResource* target = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
  VkCommandBuffer cb = RecordCommands([&](VkCommandBuffer c) {
    BeginRendering(c, target->view);
    EndRendering(c);
  });
  vkDestroyImageView(device_, target->view, nullptr);
  target->view = VK_NULL_HANDLE;
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(SubmitRecorded(cb), VK_SUCCESS);
  ExpectUseAfterFree({"use after free: write of image view", "VUID-vkDestroyImageView-imageView-01026"});
}

// Not a use after free, but the same rig: a draw with no graphics pipeline bound (VUID-vkCmdDraw-None-02700) is
// logged with the VUID when the queue reaches it and skipped; the render pass instance and the submission complete.
TEST_F(UseAfterFreeResourcesTest, DrawingWithoutABoundPipelineIsLoggedAndSkipped) {
  ImageResource* target = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
  VkCommandBuffer cb = RecordCommands([&](VkCommandBuffer c) {
    BeginRendering(c, target->view);
    vkCmdDraw(c, 3, 1, 0, 0);
    EndRendering(c);
  });
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(SubmitRecorded(cb), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_, 1, &fence_, VK_TRUE, kTenSeconds), VK_SUCCESS);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("VUID-vkCmdDraw-None-02700"), std::string::npos) << log;
}

// Destroying an image, an image view, a buffer view or a sampler twice (a double free before).
TEST_F(UseAfterFreeResourcesTest, DoubleDestructionOfImagesViewsAndSamplersIsLoggedAndIgnored) {
  ImageResource* image = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, VK_IMAGE_USAGE_SAMPLED_BIT);
  HostBuffer* texels = CreateHostBuffer(256, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  VkBufferView bufferView = CreateBufferView(texels->buffer);
  VkSampler sampler = CreateSampler();
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 2; ++i) {
    vkDestroyImageView(device_, image->view, nullptr);
    vkDestroyImage(device_, image->image, nullptr);
    vkDestroyBufferView(device_, bufferView, nullptr);
    vkDestroySampler(device_, sampler, nullptr);
  }
  image->view = VK_NULL_HANDLE;
  image->image = VK_NULL_HANDLE;
  const std::string log = ::testing::internal::GetCapturedStderr();
  for (const char* vuid : {"VUID-vkDestroyImageView-imageView-parameter", "VUID-vkDestroyImage-image-parameter",
                           "VUID-vkDestroyBufferView-bufferView-parameter", "VUID-vkDestroySampler-sampler-parameter"})
    EXPECT_NE(log.find(vuid), std::string::npos) << vuid << "\n" << log;
  // The device still works.
  HostBuffer* a = CreateHostBuffer(256);
  HostBuffer* b = CreateHostBuffer(256);
  std::memset(a->mapped, 0x5a, 256);
  Run([&](VkCommandBuffer cb) {
    VkBufferCopy region{0, 0, 256};
    vkCmdCopyBuffer(cb, a->buffer, b->buffer, 1, &region);
  });
  EXPECT_EQ(b->At<uint8_t>(255), 0x5a);
}

}  // namespace
}  // namespace crashtest::test
