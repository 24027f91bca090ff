/* crashtest's runtime control API, for tests that want a fault at an exact point of their code.
 *
 * The functions are device-level commands returned by vkGetDeviceProcAddr (no extension to enable: the loader
 * passes unknown device-level names through to the driver). With any other driver vkGetDeviceProcAddr returns
 * NULL, so a test can tell whether it runs on crashtest:
 *
 *   PFN_crashtestInjectFault inject =
 *       (PFN_crashtestInjectFault)vkGetDeviceProcAddr(device, CRASHTEST_INJECT_FAULT_NAME);
 *   if (inject) inject(device, "{\"id\": \"here\", \"effect\": \"device-lost\"}");
 *
 * See docs/faults.md ("Runtime control"). C and C++. */
#ifndef CRASHTEST_CRASHTEST_H
#define CRASHTEST_CRASHTEST_H

#include <stdint.h>
#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CRASHTEST_INJECT_FAULT_NAME "crashtestInjectFault"
#define CRASHTEST_GET_FIRED_FAULT_COUNT_NAME "crashtestGetFiredFaultCount"

/* Injects one fault, written as a JSON object in the fault plan's form (docs/faults.md) without "device".
 * - Without "when" the fault fires now, with the same effect and report as a planned one; the call returns what
 *   the triggering call would: VK_SUCCESS (masked), VK_ERROR_DEVICE_LOST (device-lost, hang — a hang injected
 *   now loses the device at once with WATCHDOG_TIMEOUT), VK_ERROR_OUT_OF_DEVICE_MEMORY / _HOST_MEMORY.
 * - With "when" the fault is added to the device's plan, its trigger counting from now ({"submit": 1} = the next
 *   submit); the call returns VK_SUCCESS.
 * A bad description returns VK_ERROR_INITIALIZATION_FAILED and logs why (JSON path and what was expected), like a
 * bad plan in the configuration. On a lost device: VK_ERROR_DEVICE_LOST, nothing fires. */
typedef VkResult(VKAPI_PTR* PFN_crashtestInjectFault)(VkDevice device, const char* faultJson);

/* How many faults fired on the device so far (planned and injected, every effect). */
typedef uint64_t(VKAPI_PTR* PFN_crashtestGetFiredFaultCount)(VkDevice device);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* CRASHTEST_CRASHTEST_H */
