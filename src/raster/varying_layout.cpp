#include "raster/shaded_vertex.h"

namespace crashtest::raster {

VaryingLayout VaryingLayout::Match(const execution::Executable& vertex, const execution::Executable* fragment) {
  VaryingLayout layout;
  if (fragment == nullptr) return layout;
  for (const execution::InterfaceSlot& in : fragment->inputs) {
    for (uint32_t c = 0; c < in.components; ++c) {
      VaryingWord word;
      word.fragmentWord = in.word + c;
      word.flat = in.flat;
      word.noPerspective = in.noPerspective;
      word.centroid = in.centroid;
      word.perSample = in.perSample;
      const uint32_t component = in.component + c;
      for (const execution::InterfaceSlot& out : vertex.outputs)
        if (out.location == in.location && component >= out.component && component < out.component + out.components)
          word.vertexWord = out.word + (component - out.component);
      layout.words.push_back(word);
    }
  }
  return layout;
}

}  // namespace crashtest::raster
