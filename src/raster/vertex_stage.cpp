#include "raster/vertex_stage.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <bit>
#include <cstring>

#include "execution/ops/lane_access.h"

namespace crashtest::raster {

VertexStage::VertexStage(const DrawState& state, const VaryingLayout& varyings)
    : state_(state), varyings_(varyings), batch_(state.vertex) {
  const execution::Executable& x = *state.vertex.exe;
  attributeInputs_.resize(state.attributes.size());
  for (size_t a = 0; a < state.attributes.size(); ++a)
    for (const execution::InterfaceSlot& in : x.inputs)
      if (in.location == state.attributes[a].location) attributeInputs_[a].push_back(&in);
  for (const execution::BuiltinOutput& out : x.builtinOutputs)
    if (out.builtIn == spv::BuiltInPosition) positionWord_ = out.word;
  for (const execution::BuiltinOutput& out : x.builtinOutputs) {
    if (out.builtIn == spv::BuiltInPointSize) pointSizeWord_ = out.word;
    if (out.builtIn == spv::BuiltInClipDistance) clipWord_ = out.word, clip_.clipCount = out.words;
    if (out.builtIn == spv::BuiltInCullDistance) cullWord_ = out.word, clip_.cullCount = out.words;
  }
  pointSizes_ = state.topology == VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  clip_.clipOffset = 4 + static_cast<uint32_t>(varyings.words.size()) + (pointSizes_ ? 1 : 0);
  clip_.cullOffset = clip_.clipOffset + clip_.clipCount;
}

bool VertexStage::Fetch(uint32_t lane, uint32_t vertexIndex, uint32_t instance, const DrawCall& call,
                        execution::ShaderFault* fault) {
  const uint32_t w = batch_.width();
  for (size_t a = 0; a < state_.attributes.size(); ++a) {
    if (attributeInputs_[a].empty()) continue;
    const VertexAttribute& attribute = state_.attributes[a];
    VkClearColorValue value{};
    value.float32[3] = 1.0f;  // "missing G, B components are filled with 0, A with 1" (22.4, Vertex Input Extraction)
    const VertexBinding* binding =
        attribute.binding < state_.bindings.size() ? &state_.bindings[attribute.binding] : nullptr;
    if (binding != nullptr && binding->data != nullptr) {
      // "If inputRate is VK_VERTEX_INPUT_RATE_VERTEX: effectiveVertexOffset = vertexIndex * stride; else
      // (instanceIndex / divisor) * stride" with instanceIndex counted from firstInstance.
      const uint64_t element = binding->rate == VK_VERTEX_INPUT_RATE_VERTEX
                                   ? vertexIndex
                                   : uint64_t{call.firstInstance} +
                                         (binding->divisor == 0 ? 0 : instance / binding->divisor);
      const uint64_t offset = element * binding->stride + attribute.offset;
      const uint32_t bytes = attribute.codec.blockSize();
      if (offset > binding->size || binding->size - offset < bytes) {
        if (state_.vertex.outOfRange != execution::OutOfRangeMode::Robust) {
          if (fault->kind == execution::ShaderFaultKind::None) {
            fault->kind = execution::ShaderFaultKind::ReadInvalid;
            fault->address = binding->address + offset;
            fault->op = execution::kFetchOperation;
            fault->localIndex = vertexIndex;
          }
          if (state_.vertex.outOfRange == execution::OutOfRangeMode::Fault) return false;
        }
        // robustBufferAccess: "Vertex input attributes are considered out of bounds if ... values of zero"
        value = VkClearColorValue{};
        if (attribute.codec.kind() == format::ValueKind::kFloat) value.float32[3] = 1.0f;
        else value.uint32[3] = 1;
      } else {
        value = attribute.codec.Decode(binding->data + offset);
      }
    }
    for (const execution::InterfaceSlot* in : attributeInputs_[a]) {
      const auto kind = static_cast<execution::Scalar>(in->kind);
      for (uint32_t c = 0; c < in->components; ++c) {
        const uint32_t k = in->component + c;
        uint32_t word = k < 4 ? value.uint32[k] : 0;
        // A float format read by an integer input (or the reverse) is invalid usage; the bits pass through.
        if (kind == execution::Scalar::F16) word = 0;  // 16-bit inputs: not executed yet (zero)
        batch_.Row(in->word + c)[lane] = word;
      }
    }
  }
  (void)w;
  return true;
}

bool VertexStage::Run(const uint32_t* ids, size_t count, uint32_t instance, const DrawCall& call, float* out,
                      execution::ShaderFault* fault, bool* stopped) {
  const execution::Executable& x = *state_.vertex.exe;
  const uint32_t w = batch_.width();
  const uint32_t stride = Stride();
  *stopped = false;
  for (size_t first = 0; first < count; first += w) {
    const uint32_t lanes = static_cast<uint32_t>(std::min<size_t>(w, count - first));
    batch_.Clear();
    uint64_t live = 0;
    for (uint32_t l = 0; l < lanes; ++l) {
      const uint32_t id = ids[first + l];
      if (id == UINT32_MAX) continue;
      live |= uint64_t{1} << l;
      if (!Fetch(l, id, instance, call, fault)) return false;
      for (const execution::BuiltinInput& in : x.builtins) {
        uint32_t v = 0;
        switch (in.builtIn) {
          case spv::BuiltInVertexIndex: v = id; break;
          case spv::BuiltInInstanceIndex: v = call.firstInstance + instance; break;
          case spv::BuiltInBaseVertex: v = call.indexed ? static_cast<uint32_t>(call.vertexOffset) : call.first; break;
          case spv::BuiltInBaseInstance: v = call.firstInstance; break;
          case spv::BuiltInViewIndex: v = state_.viewIndex; break;
          case spv::BuiltInDrawIndex: v = call.drawIndex; break;
          default: continue;  // DeviceIndex: 0 (a group of one device); subgroup built-ins: the batch's
        }
        batch_.Row(in.word)[l] = v;
      }
    }
    if (live == 0) continue;
    bool batchStopped = false;
    const execution::ShaderFault f = batch_.Run(live, 0, &batchStopped);
    if (f.kind != execution::ShaderFaultKind::None) {
      *fault = f;
      if (batchStopped) return false;
    } else if (batchStopped) {
      *stopped = true;
      return false;
    }
    for (uint32_t l = 0; l < lanes; ++l) {
      float* v = out + (first + l) * stride;
      if (positionWord_ != UINT32_MAX)
        for (uint32_t k = 0; k < 4; ++k) v[k] = std::bit_cast<float>(batch_.Row(positionWord_ + k)[l]);
      for (size_t i = 0; i < varyings_.words.size(); ++i) {
        const uint32_t word = varyings_.words[i].vertexWord;
        v[4 + i] = std::bit_cast<float>(word == UINT32_MAX ? 0u : batch_.Row(word)[l]);
      }
      if (const uint32_t at = PointSizeOffset(); at != UINT32_MAX)
        v[at] = std::bit_cast<float>(batch_.Row(pointSizeWord_)[l]);
      for (uint32_t c = 0; c < clip_.clipCount; ++c)
        v[clip_.clipOffset + c] = std::bit_cast<float>(batch_.Row(clipWord_ + c)[l]);
      for (uint32_t c = 0; c < clip_.cullCount; ++c)
        v[clip_.cullOffset + c] = std::bit_cast<float>(batch_.Row(cullWord_ + c)[l]);
    }
  }
  return true;
}

}  // namespace crashtest::raster
