#include "wsi/swapchain_validation.h"

#include <algorithm>

#include "common/result.h"
#include "wsi/surface_queries.h"

namespace crashtest::wsi {

VkResult ValidateSwapchainCreateInfo(const PhysicalDevice& physicalDevice, const VkSwapchainCreateInfoKHR& info) {
  VkSurfaceCapabilitiesKHR caps{};
  if (VkResult result = SurfaceCapabilities(physicalDevice, info.surface, caps); result != VK_SUCCESS) return result;
  constexpr VkResult kInvalid = VK_ERROR_VALIDATION_FAILED_EXT;
  if (info.flags != 0)
    return ReportError(kInvalid, "vkCreateSwapchainKHR: flags 0x%x are not supported (no swapchain flag extension "
                                 "is advertised; VUID-VkSwapchainCreateInfoKHR-flags-parameter)", info.flags);
  if (info.minImageCount < caps.minImageCount || info.minImageCount > caps.maxImageCount)
    return ReportError(kInvalid, "vkCreateSwapchainKHR: minImageCount %u is outside [%u, %u] "
                                 "(VUID-VkSwapchainCreateInfoKHR-minImageCount-01272)",
                       info.minImageCount, caps.minImageCount, caps.maxImageCount);
  const auto formats = SurfaceFormats();
  if (std::none_of(formats.begin(), formats.end(), [&](const VkSurfaceFormatKHR& f) {
        return f.format == info.imageFormat && f.colorSpace == info.imageColorSpace;
      }))
    return ReportError(kInvalid, "vkCreateSwapchainKHR: format %d with colour space %d is not a supported surface "
                                 "format (VUID-VkSwapchainCreateInfoKHR-imageFormat-01273)",
                       static_cast<int>(info.imageFormat), static_cast<int>(info.imageColorSpace));
  if (info.imageExtent.width < caps.minImageExtent.width || info.imageExtent.height < caps.minImageExtent.height ||
      info.imageExtent.width > caps.maxImageExtent.width || info.imageExtent.height > caps.maxImageExtent.height)
    return ReportError(kInvalid, "vkCreateSwapchainKHR: imageExtent %ux%u is outside %ux%u..%ux%u "
                                 "(VUID-VkSwapchainCreateInfoKHR-pNext-07781)",
                       info.imageExtent.width, info.imageExtent.height, caps.minImageExtent.width,
                       caps.minImageExtent.height, caps.maxImageExtent.width, caps.maxImageExtent.height);
  if (info.imageArrayLayers == 0 || info.imageArrayLayers > caps.maxImageArrayLayers)
    return ReportError(kInvalid, "vkCreateSwapchainKHR: imageArrayLayers %u is outside [1, %u] "
                                 "(VUID-VkSwapchainCreateInfoKHR-imageArrayLayers-01275)",
                       info.imageArrayLayers, caps.maxImageArrayLayers);
  if (info.imageUsage == 0 || (info.imageUsage & ~caps.supportedUsageFlags) != 0)
    return ReportError(kInvalid, "vkCreateSwapchainKHR: imageUsage 0x%x is not within the supported 0x%x "
                                 "(VUID-VkSwapchainCreateInfoKHR-imageUsage-01276)",
                       info.imageUsage, caps.supportedUsageFlags);
  if ((info.preTransform & caps.supportedTransforms) == 0)
    return ReportError(kInvalid, "vkCreateSwapchainKHR: preTransform 0x%x is not supported "
                                 "(VUID-VkSwapchainCreateInfoKHR-preTransform-01279)", info.preTransform);
  if ((info.compositeAlpha & caps.supportedCompositeAlpha) == 0)
    return ReportError(kInvalid, "vkCreateSwapchainKHR: compositeAlpha 0x%x is not supported "
                                 "(VUID-VkSwapchainCreateInfoKHR-compositeAlpha-01280)", info.compositeAlpha);
  const auto modes = PresentModes();
  if (std::find(modes.begin(), modes.end(), info.presentMode) == modes.end())
    return ReportError(kInvalid, "vkCreateSwapchainKHR: presentMode %d is not supported "
                                 "(VUID-VkSwapchainCreateInfoKHR-presentMode-01281)",
                       static_cast<int>(info.presentMode));
  return VK_SUCCESS;
}

}  // namespace crashtest::wsi
