// A vertex after the vertex stage, as clipping and rasterisation see it: its clip-space position and the words of
// the values the fragment stage reads from it, in the order of the fragment shader's inputs (VaryingLayout).
#pragma once

#include <cstdint>
#include <vector>

#include "execution/executable.h"

namespace crashtest::raster {

// Which vertex-output word feeds each word of the fragment stage's inputs, and how it is interpolated.
struct VaryingWord {
  uint32_t fragmentWord = 0;            // private word of the fragment input component
  uint32_t vertexWord = UINT32_MAX;     // private word of the matching vertex output component; none: reads 0
  bool flat = false;
  bool noPerspective = false;
  bool centroid = false;   // interpolated at the centroid of a partly covered pixel (multisampling)
  bool perSample = false;  // interpolated at the sample shaded (sample shading)
};

struct VaryingLayout {
  std::vector<VaryingWord> words;
  // Matches each component of the fragment shader's inputs with the vertex shader's output of the same location
  // and component ("Location and Component matching", Vulkan 1.3, 15.1.3).
  static VaryingLayout Match(const execution::Executable& vertex, const execution::Executable* fragment);
};

// Where a shaded vertex keeps its ClipDistance and CullDistance values (floats from `clipOffset` and
// `cullOffset`), written by the vertex shader; counts of 0 when it writes none ("Clip and Cull Distances").
struct ClipLayout {
  uint32_t clipOffset = 0, clipCount = 0;
  uint32_t cullOffset = 0, cullCount = 0;
};

// The vertices of one draw (one instance at a time): `stride` words each, the position's four floats first,
// then the varyings in VaryingLayout order.
struct VertexBuffer {
  uint32_t stride = 4;
  std::vector<float> words;
  float* Vertex(size_t i) { return words.data() + i * stride; }
  const float* Vertex(size_t i) const { return words.data() + i * stride; }
};

}  // namespace crashtest::raster
