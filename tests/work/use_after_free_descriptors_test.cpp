// Freeing descriptor sets, or resetting or destroying their pool, while work that uses them is pending (issue 18),
// through the real loader. The queue reads a set when it runs the bind (the set layout's dynamic offsets) and when
// a dispatch or draw flattens its descriptors; a set freed (VUID-vkFreeDescriptorSets-pDescriptorSets-00309), reset
// with its pool (VUID-vkResetDescriptorPool-descriptorPool-00313) or destroyed with it
// (VUID-vkDestroyDescriptorPool-descriptorPool-00303) since it was recorded raises a use-after-free device fault
// there instead. Before, a destroyed pool's sets were read after being freed (ASan: heap-use-after-free), and a
// freed or reset set — its memory kept by the pool for the next set — was read as if it lived: the work ran on
// the stale or the next set's descriptors, and the fence signalled.
//
// Destroying the set layout or the pipeline layout once recording is over is legal, even while the work is
// pending: vkDestroyDescriptorSetLayout has no such rule, and vkDestroyPipelineLayout only forbids command buffers
// still recording (VUID-vkDestroyPipelineLayout-pipelineLayout-02004). That work must run normally.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "use_after_free_fixture.h"

namespace crashtest::test {
namespace {

class UseAfterFreeDescriptorsTest : public UseAfterFreeResourcesTest {
 protected:
  // saxpy (y = a * x + y) over 64 floats: x all 1, y all 2, a = 1.
  struct Saxpy {
    ComputeJob job;
    HostBuffer* x;
    HostBuffer* y;
  };
  std::unique_ptr<Saxpy> MakeSaxpy(VkDescriptorPoolCreateFlags poolFlags = 0) {
    auto s = std::unique_ptr<Saxpy>(new Saxpy{
        ComputeJob(device_, "saxpy.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                   poolFlags),
        CreateHostBuffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT),
        CreateHostBuffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT)});
    const float one = 1.0f, two = 2.0f;
    for (uint32_t i = 0; i < 64; ++i) {
      std::memcpy(s->x->mapped + i * 4, &one, 4);
      std::memcpy(s->y->mapped + i * 4, &two, 4);
    }
    s->job.WriteBuffer(0, s->x->buffer);
    s->job.WriteBuffer(1, s->y->buffer);
    return s;
  }
  // Submits the bind and a dispatch, pending behind Release() (the bind first when `bindBeforeWait`: then the set
  // is gone by the dispatch, not by the bind).
  void SubmitPending(const ComputeJob& job, bool bindBeforeWait = false) {
    VkEventCreateInfo eventInfo{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
    ASSERT_EQ(vkCreateEvent(device_, &eventInfo, nullptr, &bound_), VK_SUCCESS);
    ASSERT_EQ(Submit([&](VkCommandBuffer cb) {
                if (bindBeforeWait) {
                  job.Bind(cb, 64);
                  vkCmdSetEvent(cb, bound_, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
                }
                WaitForRelease(cb);
                if (!bindBeforeWait) job.Bind(cb, 64);
                vkCmdDispatch(cb, 1, 1, 1);
              }),
              VK_SUCCESS);
    // The queue has run the bind (and waits for Release()) once it set the event.
    for (int i = 0; bindBeforeWait && vkGetEventStatus(device_, bound_) != VK_EVENT_SET; ++i) {
      ASSERT_LT(i, 10000) << "the queue never reached the wait";
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  void TearDown() override {
    if (device_ != VK_NULL_HANDLE) {
      vkDeviceWaitIdle(device_);
      vkDestroyEvent(device_, bound_, nullptr);
    }
    UseAfterFreeResourcesTest::TearDown();
  }
  VkEvent bound_ = VK_NULL_HANDLE;
};

TEST_F(UseAfterFreeDescriptorsTest, DestroyingThePoolOfAPendingSetRaisesAFault) {
  auto saxpy = MakeSaxpy();
  SubmitPending(saxpy->job);
  ::testing::internal::CaptureStderr();
  vkDestroyDescriptorPool(device_, saxpy->job.pool, nullptr);
  saxpy->job.pool = VK_NULL_HANDLE;
  Release();
  ExpectUseAfterFree({"use after free: read of descriptor set", "VUID-vkDestroyDescriptorPool-descriptorPool-00303",
                      "(vkCmdBindDescriptorSets)"});
}

// The set was bound before the wait: the dispatch, flattening its descriptors, finds it gone.
TEST_F(UseAfterFreeDescriptorsTest, DestroyingThePoolAfterTheBindRaisesAFaultAtTheDispatch) {
  auto saxpy = MakeSaxpy();
  SubmitPending(saxpy->job, true);
  ::testing::internal::CaptureStderr();
  vkDestroyDescriptorPool(device_, saxpy->job.pool, nullptr);
  saxpy->job.pool = VK_NULL_HANDLE;
  Release();
  ExpectUseAfterFree({"use after free: read of descriptor set", "VUID-vkDestroyDescriptorPool-descriptorPool-00303",
                      "(vkCmdDispatch)"});
}

// Destroyed before the submission: the pool's memory is gone at once, and the queue must not touch it.
TEST_F(UseAfterFreeDescriptorsTest, DispatchingWithASetWhosePoolWasDestroyedRaisesAFault) {
  auto saxpy = MakeSaxpy();
  VkCommandBuffer cb = RecordCommands([&](VkCommandBuffer c) {
    saxpy->job.Bind(c, 64);
    vkCmdDispatch(c, 1, 1, 1);
  });
  vkDestroyDescriptorPool(device_, saxpy->job.pool, nullptr);
  saxpy->job.pool = VK_NULL_HANDLE;
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(SubmitRecorded(cb), VK_SUCCESS);
  ExpectUseAfterFree({"use after free: read of descriptor set", "VUID-vkDestroyDescriptorPool-descriptorPool-00303"});
}

TEST_F(UseAfterFreeDescriptorsTest, FreeingAPendingSetRaisesAFault) {
  auto saxpy = MakeSaxpy(VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT);
  SubmitPending(saxpy->job, true);
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(vkFreeDescriptorSets(device_, saxpy->job.pool, 1, &saxpy->job.set), VK_SUCCESS);
  Release();
  ExpectUseAfterFree({"use after free: read of descriptor set", "VUID-vkFreeDescriptorSets-pDescriptorSets-00309",
                      "(vkCmdDispatch)"});
  EXPECT_EQ(saxpy->y->At<float>(0), 2.0f) << "the dispatch must not run";
}

TEST_F(UseAfterFreeDescriptorsTest, ResettingThePoolOfAPendingSetRaisesAFault) {
  auto saxpy = MakeSaxpy();
  SubmitPending(saxpy->job);
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(vkResetDescriptorPool(device_, saxpy->job.pool, 0), VK_SUCCESS);
  Release();
  ExpectUseAfterFree({"use after free: read of descriptor set", "VUID-vkResetDescriptorPool-descriptorPool-00313",
                      "(vkCmdBindDescriptorSets)"});
  EXPECT_EQ(saxpy->y->At<float>(0), 2.0f) << "the dispatch must not run";
}

// The recorded set was freed and a new one allocated — in the same memory, which the pool reuses — and written:
// the command buffer still names the old set, which no longer exists.
TEST_F(UseAfterFreeDescriptorsTest, ASetFreedAndReallocatedIsNotMistakenForTheRecordedOne) {
  auto saxpy = MakeSaxpy(VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT);
  VkCommandBuffer cb = RecordCommands([&](VkCommandBuffer c) {
    saxpy->job.Bind(c, 64);
    vkCmdDispatch(c, 1, 1, 1);
  });
  const VkDescriptorSet recorded = saxpy->job.set;
  ASSERT_EQ(vkFreeDescriptorSets(device_, saxpy->job.pool, 1, &saxpy->job.set), VK_SUCCESS);
  ASSERT_EQ(saxpy->job.AllocateSet(&saxpy->job.set), VK_SUCCESS);
  EXPECT_EQ(saxpy->job.set, recorded) << "the pool reuses the freed set's memory (the case this test is about)";
  saxpy->job.WriteBuffer(0, saxpy->x->buffer);
  saxpy->job.WriteBuffer(1, saxpy->y->buffer);
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(SubmitRecorded(cb), VK_SUCCESS);
  ExpectUseAfterFree({"use after free: read of descriptor set", "VUID-vkFreeDescriptorSets-pDescriptorSets-00309"});
  EXPECT_EQ(saxpy->y->At<float>(0), 2.0f) << "the dispatch must not run";
}

// The set freed (or its pool reset or destroyed) while the very dispatch that reads it runs — still
// VUID-vkFreeDescriptorSets-pDescriptorSets-00309 and its kin, but too late for a fault: like a GPU that fetched the
// descriptors as the dispatch began, the dispatch runs to its end on what the set held when it started (its
// descriptors were flattened under the pool's lock, and the buffers they name are alive), and no freed memory is
// read: the test is for ASan and TSan (work-loader runs under both in scripts/test) and for a plain build's memcheck.
// The free comes 2 ms after the queue set the event before the dispatch, which takes far longer (saxpy over 2^22
// elements). Should the worker be descheduled past those 2 ms before it flattens the descriptors, the free comes
// first and the dispatch faults instead, as above; should the dispatch be over by then, the free is legal. All three
// outcomes are checked, none may crash; the test says which it saw.
class FreedWhileTheDispatchRuns : public UseAfterFreeDescriptorsTest {
 protected:
  static constexpr uint32_t kElements = 1u << 22;
  template <typename Free>
  void Run(VkDescriptorPoolCreateFlags poolFlags, Free&& free) {
#if defined(__SANITIZE_THREAD__)
    // Under ThreadSanitizer the 2^22-element dispatch runs past the shader time budget (a watchdog loss, not what
    // this test is about); the plain and ASan runs cover it, TSan covers the locking in the other tests.
    GTEST_SKIP() << "too slow under ThreadSanitizer for the shader time budget";
#endif
    auto saxpy = MakeSaxpy(poolFlags);
    HostBuffer* x = CreateHostBuffer(kElements * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    HostBuffer* y = CreateHostBuffer(kElements * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    const float one = 1.0f, two = 2.0f;
    for (uint32_t i = 0; i < kElements; ++i) {
      std::memcpy(x->mapped + i * 4, &one, 4);
      std::memcpy(y->mapped + i * 4, &two, 4);
    }
    saxpy->job.WriteBuffer(0, x->buffer);
    saxpy->job.WriteBuffer(1, y->buffer);
    VkEventCreateInfo eventInfo{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
    ASSERT_EQ(vkCreateEvent(device_, &eventInfo, nullptr, &bound_), VK_SUCCESS);
    ASSERT_EQ(Submit([&](VkCommandBuffer cb) {
                WaitForRelease(cb);  // keeps the submission off the submitting thread (docs/execution.md)
                saxpy->job.Bind(cb, kElements);
                vkCmdSetEvent(cb, bound_, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
                vkCmdDispatch(cb, kElements / 64, 1, 1);
              }),
              VK_SUCCESS);
    Release();
    for (int i = 0; vkGetEventStatus(device_, bound_) != VK_EVENT_SET; ++i) {
      ASSERT_LT(i, 100000) << "the queue never reached the dispatch";
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    const auto reached = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ::testing::internal::CaptureStderr();
    const bool pending = vkGetFenceStatus(device_, fence_) == VK_NOT_READY;  // at the free (it is quick)
    free(*saxpy);
    const VkResult waited = vkWaitForFences(device_, 1, &fence_, VK_TRUE, kTenSeconds * 6);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - reached).count();
    const std::string log = ::testing::internal::GetCapturedStderr();
    if (waited == VK_SUCCESS) {
      for (uint32_t i = 0; i < kElements; i += 4093) ASSERT_EQ(y->At<float>(i * 4), 3.0f) << i;
      ASSERT_EQ(y->At<float>((kElements - 1) * 4), 3.0f);
      EXPECT_EQ(log.find("use after free"), std::string::npos) << log;
      std::printf("note: %s; %.1f ms from the event to the fence\n",
                  pending ? "freed while the dispatch ran: it completed" : "the dispatch was over before the free",
                  ms);
    } else {
      ASSERT_EQ(waited, VK_ERROR_DEVICE_LOST);
      EXPECT_NE(log.find("use after free: read of descriptor set"), std::string::npos) << log;
      std::printf("note: the free came before the dispatch read the set (a loaded machine): it faulted\n");
    }
  }
};

TEST_F(FreedWhileTheDispatchRuns, FreeingTheSet) {
  Run(VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT, [&](Saxpy& s) {
    ASSERT_EQ(vkFreeDescriptorSets(device_, s.job.pool, 1, &s.job.set), VK_SUCCESS);
  });
}

TEST_F(FreedWhileTheDispatchRuns, ResettingThePool) {
  Run(0, [&](Saxpy& s) { ASSERT_EQ(vkResetDescriptorPool(device_, s.job.pool, 0), VK_SUCCESS); });
}

TEST_F(FreedWhileTheDispatchRuns, DestroyingThePool) {
  Run(0, [&](Saxpy& s) {
    vkDestroyDescriptorPool(device_, s.job.pool, nullptr);
    s.job.pool = VK_NULL_HANDLE;
  });
}

// Two queues bind sets of two pools in opposite orders, at the same time. A queue holds the locks of the pools of
// the sets one command reads (queue/descriptor_set_liveness.h); taken as met, queue 1 held pool A and waited for B
// while queue 2 held B and waited for A: both hung, and with them vkDeviceWaitIdle. Released by a host event so
// that both run at once (an idle queue would otherwise run each submission on the submitting thread, in turn).
TEST_F(UseAfterFreeDescriptorsTest, QueuesLockingPoolsInOppositeOrdersDoNotDeadlock) {
  if (queues_.size() < 2) GTEST_SKIP() << "one queue";
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setInfo.bindingCount = 1;
  setInfo.pBindings = &binding;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDescriptorSetLayout(device_, &setInfo, nullptr, &setLayout), VK_SUCCESS);
  const VkDescriptorSetLayout setLayouts[2] = {setLayout, setLayout};
  VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = 2;
  layoutInfo.pSetLayouts = setLayouts;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineLayout(device_, &layoutInfo, nullptr, &layout), VK_SUCCESS);
  VkDescriptorPool pools[2] = {};
  VkDescriptorSet sets[2][2] = {};  // [pool][queue]
  for (uint32_t p = 0; p < 2; ++p) {
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 2, 1, &size};
    ASSERT_EQ(vkCreateDescriptorPool(device_, &poolInfo, nullptr, &pools[p]), VK_SUCCESS);
    VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pools[p], 2,
                                         setLayouts};
    ASSERT_EQ(vkAllocateDescriptorSets(device_, &allocate, sets[p]), VK_SUCCESS);
  }
  VkEventCreateInfo eventInfo{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
  VkFence fences[2] = {};
  VkCommandBuffer cbs[2] = {};
  for (int round = 0; round < 4; ++round) {
    VkEvent go = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateEvent(device_, &eventInfo, nullptr, &go), VK_SUCCESS);
    for (uint32_t q = 0; q < 2; ++q) {
      cbs[q] = AllocateCommandBuffer(queues_[q].family);
      Begin(cbs[q]);
      vkCmdWaitEvents(cbs[q], 1, &go, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, nullptr, 0,
                      nullptr, 0, nullptr);
      // Queue 0 binds pool 0's set first, queue 1 pool 1's.
      const VkDescriptorSet bound[2] = {sets[q][q], sets[1 - q][q]};
      for (int i = 0; i < 20000; ++i)
        vkCmdBindDescriptorSets(cbs[q], VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, bound, 0, nullptr);
      ASSERT_EQ(vkEndCommandBuffer(cbs[q]), VK_SUCCESS);
      VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      ASSERT_EQ(vkCreateFence(device_, &fenceInfo, nullptr, &fences[q]), VK_SUCCESS);
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &cbs[q];
      ASSERT_EQ(vkQueueSubmit(queues_[q].queue, 1, &submit, fences[q]), VK_SUCCESS);
    }
    ASSERT_EQ(vkSetEvent(device_, go), VK_SUCCESS);
    // A deadlock never ends: the fences time out (and the test's own timeout ends the process).
    ASSERT_EQ(vkWaitForFences(device_, 2, fences, VK_TRUE, kTenSeconds * 3), VK_SUCCESS) << "round " << round;
    for (uint32_t q = 0; q < 2; ++q) {
      vkDestroyFence(device_, fences[q], nullptr);
      vkFreeCommandBuffers(device_, pools_[queues_[q].family], 1, &cbs[q]);
    }
    vkDestroyEvent(device_, go, nullptr);
  }
  for (VkDescriptorPool pool : pools) vkDestroyDescriptorPool(device_, pool, nullptr);
  vkDestroyPipelineLayout(device_, layout, nullptr);
  vkDestroyDescriptorSetLayout(device_, setLayout, nullptr);
}

// Legal: the layouts go once recording is over, while the work is pending; it runs normally.
TEST_F(UseAfterFreeDescriptorsTest, DestroyingTheLayoutsOfPendingWorkIsLegal) {
  auto saxpy = MakeSaxpy();
  SubmitPending(saxpy->job);
  vkDestroyPipelineLayout(device_, saxpy->job.layout, nullptr);
  vkDestroyDescriptorSetLayout(device_, saxpy->job.setLayout, nullptr);
  saxpy->job.layout = VK_NULL_HANDLE;
  saxpy->job.setLayout = VK_NULL_HANDLE;
  Release();
  ASSERT_EQ(vkWaitForFences(device_, 1, &fence_, VK_TRUE, kTenSeconds), VK_SUCCESS);
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(saxpy->y->At<float>(i * 4), 3.0f) << i;
}

// A second vkDestroyDescriptorPool of the same handle is logged and ignored (a double free before).
TEST_F(UseAfterFreeDescriptorsTest, DestroyingAPoolTwiceIsLoggedAndIgnored) {
  auto saxpy = MakeSaxpy();
  ::testing::internal::CaptureStderr();
  vkDestroyDescriptorPool(device_, saxpy->job.pool, nullptr);
  vkDestroyDescriptorPool(device_, saxpy->job.pool, nullptr);
  saxpy->job.pool = VK_NULL_HANDLE;
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("VUID-vkDestroyDescriptorPool-descriptorPool-parameter"), std::string::npos) << log;
}

// Freeing sets from, resetting or allocating from a pool already destroyed (and, once idle, freed) is an error
// with the VUID, not a read of the pool's freed memory (AddressSanitizer caught that read before).
TEST_F(UseAfterFreeDescriptorsTest, UsingADestroyedPoolIsAnErrorNotAReadOfFreedMemory) {
  auto saxpy = MakeSaxpy();
  VkDescriptorPool pool = saxpy->job.pool;
  VkDescriptorSet set = saxpy->job.set;
  vkDestroyDescriptorPool(device_, pool, nullptr);
  saxpy->job.pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkDeviceWaitIdle(device_), VK_SUCCESS);  // nothing pending: the pool's memory is released
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(vkFreeDescriptorSets(device_, pool, 1, &set), VK_ERROR_VALIDATION_FAILED_EXT);
  EXPECT_EQ(vkResetDescriptorPool(device_, pool, 0), VK_ERROR_VALIDATION_FAILED_EXT);
  VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1,
                                       &saxpy->job.setLayout};
  VkDescriptorSet fresh = reinterpret_cast<VkDescriptorSet>(uintptr_t{0x1234});
  EXPECT_EQ(vkAllocateDescriptorSets(device_, &allocate, &fresh), VK_ERROR_VALIDATION_FAILED_EXT);
  EXPECT_EQ(fresh, VK_NULL_HANDLE);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("VUID-vkFreeDescriptorSets-descriptorPool-parameter"), std::string::npos) << log;
  EXPECT_NE(log.find("VUID-vkResetDescriptorPool-descriptorPool-parameter"), std::string::npos) << log;
  EXPECT_NE(log.find("VUID-VkDescriptorSetAllocateInfo-descriptorPool-parameter"), std::string::npos) << log;
  EXPECT_NE(log.find("(destroyed)"), std::string::npos) << log;
}

}  // namespace
}  // namespace crashtest::test
