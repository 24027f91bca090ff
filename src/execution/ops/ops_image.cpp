// Image operations: loading descriptors, image reads, writes and fetches, sampling, queries and texel pointers for
// image atomics. An image value is an index into the dispatch's image table (executable.h); the texel work itself
// is src/sampling's. Image and texel-buffer accesses are bounds-checked as a GPU's image descriptors are: a texel
// outside the image reads as zero and is not written ("Integer Texel Coordinate Validation"; robustImageAccess's
// behaviour), never a host access out of range and never a device fault.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "execution/dispatch_context.h"
#include "execution/ops/ops.h"
#include "sampling/quad_sampler.h"
#include "sampling/sampler.h"
#include "sampling/texel_access.h"

namespace crashtest::execution::ops {
namespace {

constexpr uint64_t kOffsetMask = (uint64_t{1} << 40) - 1;

const sampling::ImageTableEntry* Entry(const SubgroupState& s, uint32_t index) {
  return index < s.dispatch->imageCount && s.dispatch->images != nullptr ? &s.dispatch->images[index] : nullptr;
}

float AsFloat(uint32_t bits) { return std::bit_cast<float>(bits); }

// Component c of lane l of a 32-bit (or 16-bit) operand as a texel word of the requested kind.
uint32_t ReadWord(const uint32_t* value, uint32_t w, uint32_t c, uint32_t l, Scalar kind) {
  const uint32_t word = value[static_cast<size_t>(c) * w + l];
  switch (kind) {
    case Scalar::F16: return std::bit_cast<uint32_t>(HalfToFloat(word));
    case Scalar::S16: return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(word)));
    case Scalar::S8: return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(word)));
    default: return word;
  }
}

void WriteWord(uint32_t* result, uint32_t w, uint32_t c, uint32_t l, Scalar kind, uint32_t word) {
  uint32_t& out = result[static_cast<size_t>(c) * w + l];
  switch (kind) {
    case Scalar::F16: out = FloatToHalf(AsFloat(word)); break;
    case Scalar::U16: case Scalar::S16: out = word & 0xffffu; break;
    case Scalar::U8: case Scalar::S8: out = word & 0xffu; break;
    default: out = word; break;
  }
}

// Integer texel coordinates from the coordinate operand: x, y, z and the layer (cube faces count as layers).
struct TexelCoordinates {
  int32_t x = 0, y = 0, z = 0, layer = 0;
};

TexelCoordinates IntegerCoordinates(const ImageInstruction& ii, const uint32_t* coord, const uint32_t* offset,
                                    uint32_t w, uint32_t l) {
  int32_t c[4] = {0, 0, 0, 0};
  for (uint32_t k = 0; k < ii.coordinateCount && k < 4; ++k) c[k] = static_cast<int32_t>(coord[k * w + l]);
  if (offset != nullptr)
    for (uint32_t k = 0; k < ii.offsetCount && k < 3; ++k) c[k] += static_cast<int32_t>(offset[k * w + l]);
  TexelCoordinates t;
  switch (static_cast<sampling::Dim>(ii.dim)) {
    case sampling::Dim::k1D: case sampling::Dim::kBuffer:
      t.x = c[0];
      if (ii.arrayed) t.layer = c[1];
      break;
    case sampling::Dim::k3D:
      t.x = c[0], t.y = c[1], t.z = c[2];
      break;
    case sampling::Dim::kCube:  // storage cubes are addressed as layers: z = face + 6 * cube
      t.x = c[0], t.y = c[1], t.layer = c[2];
      break;
    default:
      t.x = c[0], t.y = c[1];
      if (ii.arrayed) t.layer = c[2];
      break;
  }
  return t;
}

const uint32_t* OptionalSlot(const SubgroupState& s, uint32_t slot) {
  return slot == kNoSlot ? nullptr : s.Slot(slot);
}

}  // namespace

void LoadDescriptor(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  // The result and the pointer are different slots: restrict lets the copy vectorise.
  const uint32_t* __restrict pointer = s.Slot(op.a);
  for (uint32_t k = 0; k < op.n; ++k) {
    uint32_t* __restrict d = s.Slot(op.dst + k);
    if (s.full) {
      std::memcpy(d, pointer, sizeof(uint32_t) * w);
      continue;
    }
    const uint32_t* __restrict mask = s.laneMask;
    for (uint32_t l = 0; l < w; ++l) d[l] = Blend(mask[l], pointer[l], d[l]);
  }
}

namespace {

// A 64-bit texel after the view's component mapping (identity for storage images and texel buffers).
sampling::WideTexel SwizzledWide(const sampling::ImageDescriptor& image, const sampling::WideTexel& texel) {
  sampling::WideTexel out;
  for (int c = 0; c < 4; ++c) {
    const uint8_t pick = image.swizzle[c];
    out.v[c] = pick < 4 ? texel.v[pick] : pick == sampling::kSwizzleOne ? 1u : 0u;
  }
  return out;
}

// OpImageRead / OpImageFetch; kWide: a 64-bit integer texel (Int64ImageEXT), each component in two slots.
template <bool kWide>
void ReadTexels(const Op& op, SubgroupState& s) {
  const ImageInstruction& ii = s.exe->imageInstructions[op.aux];
  const uint32_t w = s.width;
  const uint32_t* image = s.Slot(op.a);
  const uint32_t* coord = s.Slot(op.b);
  const uint32_t* lod = OptionalSlot(s, ii.lod);
  const uint32_t* sample = OptionalSlot(s, ii.sample);
  const uint32_t* offset = OptionalSlot(s, ii.offset);
  const Scalar kind = static_cast<Scalar>(ii.valueKind);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    const sampling::ImageTableEntry* entry = Entry(s, image[l]);
    std::conditional_t<kWide, sampling::WideTexel, sampling::Texel> texel;
    if (entry != nullptr) {
      TexelCoordinates t = IntegerCoordinates(ii, coord, offset, w, l);
      if (ii.dim == static_cast<uint8_t>(sampling::Dim::kSubpassData) && s.pixelX != nullptr) {
        // "subpassLoad ... reads the input attachment at the fragment's framebuffer coordinates" plus the
        // coordinate operand (0, 0 from GLSL), in the layer of the view being rendered.
        t.x += s.pixelX[l], t.y += s.pixelY[l];
        t.layer = static_cast<int32_t>(s.pixelLayer);
      }
      const uint32_t level = lod != nullptr ? lod[l] : 0;
      const uint32_t at = sample != nullptr ? sample[l] : 0;
      if constexpr (kWide) {
        if (!sampling::LoadWideTexel(entry->image, level, t.x, t.y, t.z, t.layer, at, &texel))
          texel = sampling::OutOfBoundsWideTexel(entry->image);
        texel = SwizzledWide(entry->image, texel);
      } else {
        if (!sampling::LoadTexel(entry->image, level, t.x, t.y, t.z, t.layer, at, &texel))
          texel = sampling::OutOfBoundsTexel(entry->image);
        texel = sampling::Swizzled(entry->image, texel);
      }
    }
    for (uint32_t c = 0; c < ii.valueCount; ++c) {
      if constexpr (kWide) {
        d[static_cast<size_t>(2 * c) * w + l] = static_cast<uint32_t>(texel.v[c]);
        d[static_cast<size_t>(2 * c + 1) * w + l] = static_cast<uint32_t>(texel.v[c] >> 32);
      } else {
        WriteWord(d, w, c, l, kind, texel.v[c]);
      }
    }
  });
}

// OpImageWrite; kWide as for ReadTexels. Components the texel operand lacks are written as zero.
template <bool kWide>
void WriteTexels(const Op& op, SubgroupState& s) {
  const ImageInstruction& ii = s.exe->imageInstructions[op.aux];
  const uint32_t w = s.width;
  const uint32_t* image = s.Slot(op.a);
  const uint32_t* coord = s.Slot(op.b);
  const uint32_t* value = s.Slot(ii.texel);
  const uint32_t* sample = OptionalSlot(s, ii.sample);
  const Scalar kind = static_cast<Scalar>(ii.valueKind);
  // Helper invocations write nothing (as StoreExplicit).
  ForEachLane(s.active & ~s.helpers, [&](uint32_t l) {
    const sampling::ImageTableEntry* entry = Entry(s, image[l]);
    if (entry == nullptr) return;
    const TexelCoordinates t = IntegerCoordinates(ii, coord, nullptr, w, l);
    std::byte* at = sampling::TexelAddress(entry->image, 0, t.x, t.y, t.z, t.layer, sample != nullptr ? sample[l] : 0);
    if (at == nullptr) return;  // outside the image: the write is discarded
    if constexpr (kWide) {
      sampling::WideTexel texel;
      for (uint32_t c = 0; c < ii.valueCount && c < 4; ++c)
        texel.v[c] = Join(value[static_cast<size_t>(2 * c) * w + l], value[static_cast<size_t>(2 * c + 1) * w + l]);
      sampling::WriteWideTexel(entry->image, texel, at);
    } else {
      sampling::Texel texel;
      for (uint32_t c = 0; c < ii.valueCount && c < 4; ++c) texel.v[c] = ReadWord(value, w, c, l, kind);
      sampling::WriteTexel(entry->image, texel, at);
    }
  });
}

}  // namespace

void ImageRead(const Op& op, SubgroupState& s) { ReadTexels<false>(op, s); }
void ImageReadWide(const Op& op, SubgroupState& s) { ReadTexels<true>(op, s); }
void ImageWrite(const Op& op, SubgroupState& s) { WriteTexels<false>(op, s); }
void ImageWriteWide(const Op& op, SubgroupState& s) { WriteTexels<true>(op, s); }

void ImageSample(const Op& op, SubgroupState& s) {
  const ImageInstruction& ii = s.exe->imageInstructions[op.aux];
  const uint32_t w = s.width;
  const uint32_t* images = s.Slot(op.a);
  const uint32_t* samplers = images + w;
  const uint32_t* coord = s.Slot(op.b);
  const uint32_t* lod = OptionalSlot(s, ii.lod);
  const uint32_t* bias = OptionalSlot(s, ii.bias);
  const uint32_t* minLod = OptionalSlot(s, ii.minLod);
  const uint32_t* gradX = OptionalSlot(s, ii.gradX);
  const uint32_t* gradY = OptionalSlot(s, ii.gradY);
  const uint32_t* offset = OptionalSlot(s, ii.offset);
  const uint32_t* dref = OptionalSlot(s, ii.dref);
  const uint32_t* component = OptionalSlot(s, ii.component);
  const uint32_t* gatherOffsets = OptionalSlot(s, ii.gatherOffsets);
  const Scalar kind = static_cast<Scalar>(ii.valueKind);
  uint32_t* d = s.Slot(op.dst);
  // Implicit LOD (fragment quads): the coordinate of every lane, projected, for the quad's derivatives. Lanes
  // outside the active set still hold their quad's values (helper lanes run with the quad).
  const uint32_t gradCount = ii.dim == static_cast<uint8_t>(sampling::Dim::k1D) ? 1
                             : ii.dim == static_cast<uint8_t>(sampling::Dim::k3D) ||
                                     ii.dim == static_cast<uint8_t>(sampling::Dim::kCube)
                                 ? 3
                                 : 2;
  float quadCoord[3][kMaxSubgroupWidth];
  const bool implicit = ii.implicitLod && lod == nullptr && gradX == nullptr && (w & 3) == 0;
  if (implicit) {
    if (ii.proj) {
      for (uint32_t l = 0; l < w; ++l) {
        const float q = AsFloat(coord[(ii.coordinateCount - 1) * w + l]);
        for (uint32_t k = 0; k < gradCount; ++k) quadCoord[k][l] = AsFloat(coord[k * w + l]) / q;
      }
    } else {
      for (uint32_t k = 0; k < gradCount; ++k) std::memcpy(quadCoord[k], coord + k * w, w * sizeof(float));
    }
  }
  // The quad path: an implicit-LOD sample of a 2D image with no operand beyond the coordinates (texture(s, uv)
  // in a fragment shader), the most frequent sample of a draw.
  const bool quadPath = implicit && !ii.proj && !ii.arrayed && !ii.integerCoordinates && !ii.gather &&
                        ii.dim == static_cast<uint8_t>(sampling::Dim::k2D) && bias == nullptr && minLod == nullptr &&
                        offset == nullptr && dref == nullptr && gatherOffsets == nullptr;
  uint32_t lodQuad = UINT32_MAX;
  const sampling::ImageTableEntry* lodImage = nullptr;
  float quadLod = 0.0f;
  auto sampleLane = [&](uint32_t l) {
    const sampling::ImageTableEntry* image = Entry(s, images[l]);
    const sampling::ImageTableEntry* sampler = Entry(s, samplers[l]);
    sampling::Texel texel;
    if (image != nullptr && sampler != nullptr) {
      sampling::SampleRequest request;
      request.dim = static_cast<sampling::Dim>(ii.dim);
      request.arrayed = ii.arrayed;
      for (uint32_t k = 0; k < ii.coordinateCount && k < 4; ++k) {
        const uint32_t word = coord[k * w + l];
        request.coord[k] = ii.integerCoordinates ? static_cast<float>(static_cast<int32_t>(word)) : AsFloat(word);
      }
      if (ii.proj && ii.coordinateCount > 1) {
        // "the coordinates are divided by the last component" (OpImageSampleProj*).
        const float q = request.coord[ii.coordinateCount - 1];
        for (uint32_t k = 0; k + 1 < ii.coordinateCount; ++k) request.coord[k] /= q;
      }
      if (lod != nullptr) request.lod = AsFloat(lod[l]);
      if (gradX != nullptr) {
        float dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
        for (uint32_t k = 0; k < ii.gradCount && k < 3; ++k) {
          dx[k] = AsFloat(gradX[k * w + l]);
          dy[k] = AsFloat(gradY[k * w + l]);
        }
        request.lod = sampling::LodFromGradients(image->image, request.dim, dx, dy, ii.gradCount);
      }
      if (implicit) {
        // Implicit LOD from the quad's coarse differences (one LOD per quad, as GPUs compute it), computed at the
        // quad's first active lane and reused for the others while they sample the same image.
        const uint32_t q = l & ~3u;
        if (q != lodQuad || image != lodImage) {
          float dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
          for (uint32_t k = 0; k < gradCount; ++k) {
            dx[k] = quadCoord[k][q + 1] - quadCoord[k][q];
            dy[k] = quadCoord[k][q + 2] - quadCoord[k][q];
          }
          quadLod = sampling::LodFromGradients(image->image, request.dim, dx, dy, gradCount);
          lodQuad = q;
          lodImage = image;
        }
        request.lod = quadLod;
      }
      if (bias != nullptr) request.bias = AsFloat(bias[l]);
      if (minLod != nullptr) request.minLod = AsFloat(minLod[l]);
      if (offset != nullptr)
        for (uint32_t k = 0; k < ii.offsetCount && k < 3; ++k) request.offset[k] = static_cast<int32_t>(offset[k * w + l]);
      if (dref != nullptr) {
        request.compare = true;
        request.dref = AsFloat(dref[l]);
      }
      if (ii.gather) request.gatherComponent = component != nullptr ? static_cast<int32_t>(component[l] & 3) : 0;
      if (gatherOffsets != nullptr) {
        request.hasGatherOffsets = true;
        for (uint32_t k = 0; k < 8; ++k)
          request.gatherOffsets[k / 2][k % 2] = static_cast<int32_t>(gatherOffsets[k * w + l]);
      }
      texel = sampling::Sample(image->image, sampler->sampler, request);
    }
    for (uint32_t c = 0; c < ii.valueCount; ++c) WriteWord(d, w, c, l, kind, texel.v[c]);
  };
  if (quadPath) {
    // Whole quads through the quad sampler when the quad's active lanes sample one view through one sampler that
    // it accepts; the other quads lane by lane.
    // The descriptors of the previous quad and whether the quad sampler takes them (usually the same for every
    // quad of the subgroup).
    uint32_t lastImage = ~0u, lastSampler = ~0u;
    const sampling::ImageTableEntry *image = nullptr, *sampler = nullptr;
    bool samplable = false;
    sampling::QuadKernelImage kernel;
    // The usual case, every lane running and sampling one view through one sampler: every quad's λ at once.
    float quadLambda[kMaxSubgroupWidth / 4];
    bool lambdasReady = false;
    if (s.full && w / 4 <= sampling::kMaxQuadsPerCall) {
      bool uniform = true;
      for (uint32_t l = 1; l < w; ++l) uniform &= images[l] == images[0] && samplers[l] == samplers[0];
      const sampling::ImageTableEntry* first = uniform ? Entry(s, images[0]) : nullptr;
      if (first != nullptr) {
        sampling::LodFromQuadGradients2D(first->image, quadCoord[0], quadCoord[1], w / 4, quadLambda);
        lambdasReady = true;
        // All four components as floats: the quads filtered in one batch straight into the result rows.
        const sampling::ImageTableEntry* firstSampler = Entry(s, samplers[0]);
        if (kind == Scalar::F32 && ii.valueCount == 4 && firstSampler != nullptr &&
            sampling::QuadSamplable(first->image, firstSampler->sampler)) {
          sampling::PrepareQuadKernel(first->image, firstSampler->sampler, 0, &kernel);
          if (sampling::SampleFullQuads(first->image, firstSampler->sampler, kernel, quadLambda, w / 4, quadCoord[0],
                                        quadCoord[1], reinterpret_cast<float*>(d), w))
            return;
        }
      }
    }
    for (uint32_t q = 0; q < w; q += 4) {
      const uint32_t quadLanes = static_cast<uint32_t>(s.active >> q) & 0xfu;
      if (quadLanes == 0) continue;
      const uint32_t first = q + static_cast<uint32_t>(std::countr_zero(quadLanes));
      bool same = true;
      for (uint32_t i = 0; i < 4; ++i)
        if ((quadLanes >> i & 1) != 0 && (images[q + i] != images[first] || samplers[q + i] != samplers[first]))
          same = false;
      if (images[first] != lastImage || samplers[first] != lastSampler) {
        lastImage = images[first], lastSampler = samplers[first];
        image = Entry(s, lastImage);
        sampler = Entry(s, lastSampler);
        samplable = image != nullptr && sampler != nullptr && sampling::QuadSamplable(image->image, sampler->sampler);
        if (samplable) sampling::PrepareQuadKernel(image->image, sampler->sampler, 0, &kernel);
      }
      if (!same || !samplable) {
        ForEachLane(uint64_t{quadLanes} << q, sampleLane);
        continue;
      }
      float lambda;
      if (lambdasReady) {
        lambda = quadLambda[q / 4];
      } else {
        float dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
        for (uint32_t k = 0; k < gradCount; ++k) {
          dx[k] = quadCoord[k][q + 1] - quadCoord[k][q];
          dy[k] = quadCoord[k][q + 2] - quadCoord[k][q];
        }
        lambda = sampling::LodFromGradients(image->image, sampling::Dim::k2D, dx, dy, gradCount);
      }
      float texels[4][4];
      sampling::SampleQuad(image->image, sampler->sampler, kernel, lambda, 0, quadLanes, &quadCoord[0][q],
                           &quadCoord[1][q], texels);
      if (quadLanes == 0xf && kind == Scalar::F32) {
        for (uint32_t c = 0; c < ii.valueCount && c < 4; ++c) std::memcpy(d + c * w + q, texels[c], sizeof texels[c]);
        continue;
      }
      for (uint32_t i = 0; i < 4; ++i) {
        if ((quadLanes >> i & 1) == 0) continue;
        for (uint32_t c = 0; c < ii.valueCount; ++c)
          WriteWord(d, w, c, q + i, kind, std::bit_cast<uint32_t>(texels[c][i]));
      }
    }
  } else {
    ForEachLane(s.active, sampleLane);
  }
}

void ImageQuerySize(const Op& op, SubgroupState& s) {
  const ImageInstruction& ii = s.exe->imageInstructions[op.aux];
  const uint32_t w = s.width;
  const uint32_t* image = s.Slot(op.a);
  const uint32_t* lod = OptionalSlot(s, ii.lod);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    const sampling::ImageTableEntry* entry = Entry(s, image[l]);
    uint32_t size[4] = {0, 0, 0, 0};
    if (entry != nullptr && entry->image.bound) {
      const sampling::ImageDescriptor& view = entry->image;
      const uint32_t level = lod != nullptr ? lod[l] : 0;
      if (view.texelBuffer) {
        size[0] = view.level[0].width;
      } else if (level < view.levels) {
        const sampling::LevelView& v = view.level[level];
        const uint32_t layers = view.cube ? view.layers / 6 : view.layers;
        switch (static_cast<sampling::Dim>(ii.dim)) {
          case sampling::Dim::k1D: size[0] = v.width, size[1] = layers; break;
          case sampling::Dim::k3D: size[0] = v.width, size[1] = v.height, size[2] = v.depth; break;
          default: size[0] = v.width, size[1] = v.height, size[2] = layers; break;
        }
      }
    }
    for (uint32_t c = 0; c < op.n; ++c) d[c * w + l] = size[c];
  });
}

void ImageQueryLevels(const Op& op, SubgroupState& s) {
  const uint32_t* image = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    const sampling::ImageTableEntry* entry = Entry(s, image[l]);
    d[l] = entry != nullptr && entry->image.bound ? entry->image.levels : 0;
  });
}

void ImageQuerySamples(const Op& op, SubgroupState& s) {
  const uint32_t* image = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    const sampling::ImageTableEntry* entry = Entry(s, image[l]);
    d[l] = entry != nullptr && entry->image.bound ? entry->image.samples : 0;
  });
}

void ImageTexelPointer(const Op& op, SubgroupState& s) {
  const ImageInstruction& ii = s.exe->imageInstructions[op.aux];
  const uint32_t w = s.width;
  const uint32_t* image = s.Slot(op.a);  // the image variable's pointer: its low word is the table index
  const uint32_t* coord = s.Slot(op.b);
  const uint32_t* sample = OptionalSlot(s, ii.sample);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    const sampling::ImageTableEntry* entry = Entry(s, image[l]);
    uint64_t pointer = kOffsetMask;
    if (entry != nullptr) {
      const TexelCoordinates t = IntegerCoordinates(ii, coord, nullptr, w, l);
      const std::byte* at = sampling::TexelAddress(entry->image, 0, t.x, t.y, t.z, t.layer,
                                                   sample != nullptr ? sample[l] : 0);
      const uint64_t offset = at != nullptr ? static_cast<uint64_t>(at - entry->image.level[0].base) : kOffsetMask;
      pointer = (uint64_t{image[l]} + 1) << 40 | std::min(offset, kOffsetMask);
    }
    d[l] = static_cast<uint32_t>(pointer);
    d[w + l] = static_cast<uint32_t>(pointer >> 32);
  });
}

std::byte* ImageTexelHost(const SubgroupState& s, uint64_t pointer, uint64_t bytes) {
  const uint64_t index = pointer >> 40;
  const uint64_t offset = pointer & kOffsetMask;
  if (index == 0 || offset == kOffsetMask) return nullptr;
  const sampling::ImageTableEntry* entry = Entry(s, static_cast<uint32_t>(index - 1));
  if (entry == nullptr || !entry->image.bound || bytes > entry->image.texelBytes) return nullptr;
  return entry->image.level[0].base + offset;
}

}  // namespace crashtest::execution::ops
