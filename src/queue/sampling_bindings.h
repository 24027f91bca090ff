// From Vulkan objects to what the shader engine sees of them: image views, texel-buffer views and samplers
// flattened into sampling descriptors (src/sampling/image_descriptor.h) when a dispatch starts. Shared by compute
// and (later) draws.
#pragma once

#include <string>

#include "sampling/image_descriptor.h"

namespace crashtest {

class BufferView;
class ImageView;
class Sampler;

// An unbound descriptor (bound == false) when the view's image has no memory. When the engine cannot read the
// view's format or shape (ETC2/EAC/ASTC/PVRTC, multi-planar, a 3D image seen as 2D), the descriptor is unbound too and
// `*unsupported` names what (left untouched otherwise), so the caller can say the dispatch is not executed.
sampling::ImageDescriptor DescribeImageView(const ImageView& view, std::string* unsupported);
// The same for one aspect of a view (colour, or the depth or the stencil aspect of a depth/stencil view), as a
// draw's attachment.
sampling::ImageDescriptor DescribeAttachment(const ImageView& view, VkImageAspectFlags aspects,
                                             std::string* unsupported);
sampling::ImageDescriptor DescribeBufferView(const BufferView& view, std::string* unsupported);
// `maxLodBias` is the device's maxSamplerLodBias.
sampling::SamplerDescriptor DescribeSampler(const Sampler& sampler, float maxLodBias);

}  // namespace crashtest
