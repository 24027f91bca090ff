// The steps follow Vulkan 1.3 chapter 16 in order: 16.5 (cube map face selection), 16.6 (level-of-detail selection),
// 16.7 (unnormalised texel coordinates, wrapping), 16.3 (texel replacement: the border colour), 16.8 (filtering and
// reduction), 16.3.1 (depth comparison) and the component swizzle.
#include "sampling/sampler.h"

#include "common/compare_op.h"
#include "sampling/bilinear_2d.h"
#include "sampling/cube_map.h"
#include "sampling/lod_log2.h"
#include "sampling/texel_wrap.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace crashtest::sampling {
namespace {

float F(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t Bits(float value) { return std::bit_cast<uint32_t>(value); }

uint32_t DimensionCount(Dim dim) {
  switch (dim) {
    case Dim::k1D: case Dim::kBuffer: return 1;
    case Dim::k3D: case Dim::kCube: return 3;
    default: return 2;
  }
}

// Where the sample is taken, after cube face selection and layer selection.
struct Location {
  float coord[3] = {0, 0, 0};  // s, t, r (normalised unless the sampler is unnormalised)
  uint32_t dims = 2;
  int32_t layer = 0;
  bool cube = false;
  int32_t face = 0;  // cubes: the selected face (layer - face is the cube's first layer)
};

Location Locate(const ImageDescriptor& image, const SampleRequest& request) {
  Location where;
  where.dims = DimensionCount(request.dim);
  if (request.dim == Dim::kCube) {
    // Table "Cube map face selection and transformations": the major axis picks the face; ties go to z, then y.
    const CubeFace selected = SelectCubeFace(request.coord[0], request.coord[1], request.coord[2]);
    const int32_t face = selected.face;
    const float sc = selected.sc, tc = selected.tc, ma = selected.ma;
    const float inv = ma > 0 ? 1.0f / ma : 0.0f;
    where.coord[0] = 0.5f * (sc * inv + 1.0f);
    where.coord[1] = 0.5f * (tc * inv + 1.0f);
    where.dims = 2;
    where.cube = true;
    int32_t cubeIndex = 0;
    if (request.arrayed) {
      const float layer = std::nearbyint(request.coord[3]);
      const int32_t cubes = static_cast<int32_t>(image.layers / 6);
      cubeIndex = std::clamp(static_cast<int32_t>(std::clamp(layer, -1.0f, 65536.0f)), 0, std::max(cubes - 1, 0));
    }
    where.layer = face + 6 * cubeIndex;
    where.face = face;
    return where;
  }
  for (uint32_t i = 0; i < where.dims; ++i) where.coord[i] = request.coord[i];
  if (request.arrayed) {
    // "layer = clamp(RNE(a), 0, layerCount - 1)" (16.5.3, array layer selection).
    const float layer = std::nearbyint(request.coord[where.dims]);
    where.layer = std::clamp(static_cast<int32_t>(std::clamp(layer, -1.0f, 65536.0f)), 0,
                             std::max(static_cast<int32_t>(image.layers) - 1, 0));
  }
  return where;
}

class LevelSampler {
 public:
  LevelSampler(const ImageDescriptor& image, const SamplerDescriptor& sampler, const SampleRequest& request,
               const Location& where)
      : image_(image), sampler_(sampler), request_(request), where_(where) {}

  // One texel after wrapping and border replacement, with the depth comparison applied for Dref requests.
  // `footprint` is set for the texels of a linear filter or gather, which take part in cube map edge handling.
  Texel Tap(uint32_t level, int32_t x, int32_t y, int32_t z, bool footprint = false) const {
    const LevelView& l = image_.level[level];
    const int32_t size[3] = {static_cast<int32_t>(l.width), static_cast<int32_t>(l.height),
                             static_cast<int32_t>(l.depth)};
    if (where_.cube && footprint && !sampler_.nonSeamlessCube &&
        (x < 0 || y < 0 || x >= size[0] || y >= size[1]))
      return CubeEdgeTap(level, x, y, std::max(size[0], 1));
    int32_t c[3] = {x, where_.dims > 1 ? y : 0, where_.dims > 2 ? z : 0};
    bool border = false;
    for (uint32_t i = 0; i < where_.dims; ++i) {
      // "If the used sampler was created without VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT, Cube images ignore
      // the wrap modes specified in the sampler. Instead, if VK_FILTER_NEAREST is used within a mip level then
      // VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE is used, and if VK_FILTER_LINEAR is used [...] sampling at the edges is
      // performed as described earlier in the Cube map edge handling section" (CubeEdgeTap). With the flag, the
      // sampler's address modes apply within the selected face.
      const VkSamplerAddressMode mode = where_.cube && !sampler_.nonSeamlessCube ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
                                                                                 : sampler_.address[i];
      c[i] = Wrap(c[i], std::max(size[i], 1), mode, &border);
    }
    Texel texel;
    if (border) {
      for (int k = 0; k < 4; ++k) texel.v[k] = sampler_.border.uint32[k];
    } else {
      LoadTexel(image_, level, c[0], c[1], c[2], where_.layer, 0, &texel);
    }
    return Compared(texel);
  }

  // Cube map edge handling (16.5.2): a texel past one edge comes from the neighbouring face; one past a corner is
  // the average of the three texels that meet there (each compared first for Dref requests).
  Texel CubeEdgeTap(uint32_t level, int32_t x, int32_t y, int32_t size) const {
    CubeTexel texels[3];
    const uint32_t count = CubeEdgeTexels(where_.face, x, y, size, texels);
    const int32_t cubeBase = where_.layer - where_.face;
    float sum[4] = {0, 0, 0, 0};
    Texel one;
    for (uint32_t t = 0; t < count; ++t) {
      one = Texel{};
      LoadTexel(image_, level, texels[t].i, texels[t].j, 0, cubeBase + texels[t].face, 0, &one);
      one = Compared(one);
      for (int k = 0; k < 4; ++k) sum[k] += F(one.v[k]);
    }
    if (count == 1) return one;
    Texel out;
    for (int k = 0; k < 4; ++k) out.v[k] = Bits(sum[k] / static_cast<float>(count));
    return out;
  }

  Texel Compared(const Texel& texel) const {
    if (!request_.compare) return texel;
    float reference = request_.dref;
    if (image_.unormDepth) reference = std::clamp(reference, 0.0f, 1.0f);
    Texel result;
    result.v[0] = Bits(CompareOp(sampler_.compareOp, reference, F(texel.v[0])) ? 1.0f : 0.0f);
    return result;
  }

  // The texel coordinates of `level` before wrapping: u, v, w plus the offsets.
  void Scaled(uint32_t level, float out[3]) const {
    const LevelView& l = image_.level[level];
    const float size[3] = {static_cast<float>(l.width), static_cast<float>(l.height), static_cast<float>(l.depth)};
    for (uint32_t i = 0; i < 3; ++i) {
      const float c = i < where_.dims ? where_.coord[i] : 0.0f;
      out[i] = (sampler_.unnormalized ? c : c * size[i]) + static_cast<float>(where_.cube ? 0 : request_.offset[i]);
    }
  }

  Texel Filter(uint32_t level, VkFilter filter) const {
    float u[3];
    Scaled(level, u);
    const bool integer = image_.kind != format::ValueKind::kFloat && !request_.compare;
    if (filter == VK_FILTER_NEAREST || integer) {
      // "i = floor(u)" (16.7.3, nearest filtering).
      return Tap(level, FloorToTexel(u[0]), FloorToTexel(u[1]), FloorToTexel(u[2]));
    }
    if (where_.dims == 2 && !where_.cube && !request_.compare && image_.decodeBlock == nullptr &&
        image_.aspect == Aspect::kColor && sampler_.reduction == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE &&
        sampler_.address[0] != VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER &&
        sampler_.address[1] != VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER && !image_.texelBuffer)
      return Bilinear2D(level, u);
    // Linear: i0 = floor(u - 0.5), i1 = i0 + 1, alpha = frac(u - 0.5), per dimension.
    int32_t i0[3] = {0, 0, 0};
    float alpha[3] = {0, 0, 0};
    for (uint32_t d = 0; d < where_.dims; ++d) {
      const float shifted = u[d] - 0.5f;
      const float base = std::floor(shifted);
      i0[d] = ClampToTexel(base);
      alpha[d] = shifted - base;
    }
    const uint32_t taps = 1u << where_.dims;
    float sum[4] = {0, 0, 0, 0};
    float low[4], high[4];
    bool any = false;
    for (uint32_t t = 0; t < taps; ++t) {
      float weight = 1.0f;
      int32_t c[3] = {i0[0], i0[1], i0[2]};
      for (uint32_t d = 0; d < where_.dims; ++d) {
        const bool upper = (t >> d) & 1;
        c[d] += upper ? 1 : 0;
        weight *= upper ? alpha[d] : 1.0f - alpha[d];
      }
      const Texel texel = Tap(level, c[0], c[1], c[2], true);
      if (sampler_.reduction == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE) {
        for (int k = 0; k < 4; ++k) sum[k] += weight * F(texel.v[k]);
      } else if (weight != 0.0f) {
        // "the component-wise minimum (maximum) of values in the footprint with non-zero weights".
        for (int k = 0; k < 4; ++k) {
          const float value = F(texel.v[k]);
          low[k] = any ? std::min(low[k], value) : value;
          high[k] = any ? std::max(high[k], value) : value;
        }
        any = true;
      }
    }
    Texel out;
    const float* result = sampler_.reduction == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE ? sum
                          : sampler_.reduction == VK_SAMPLER_REDUCTION_MODE_MIN            ? low
                                                                                            : high;
    for (int k = 0; k < 4; ++k) out.v[k] = Bits(any || result == sum ? result[k] : 0.0f);
    return out;
  }

  // Linear filtering of a 2D colour level without borders (the most common sample by far): the same formulas as the
  // general path below, with each axis wrapped once and the four texels addressed directly.
  Texel Bilinear2D(uint32_t level, const float u[3]) const {
    Texel out;
    if (where_.layer < 0 || static_cast<uint32_t>(where_.layer) >= image_.layers) return out;
    const LevelAccess access = AccessLevel(image_, level, where_.layer);
    Float4 sum;
#if defined(CRASHTEST_HAVE_UNORM4X8)
    if (image_.codec.unorm4x8() != format::Unorm4x8::kNone)
      sum = sampling::Bilinear2D(access, sampler_.address, Unorm4x8CodeDecoder{image_.codec.unorm4x8()}, u[0], u[1]);
    else
#endif
      sum = sampling::Bilinear2D(access, sampler_.address, CodecDecoder{&image_.codec}, u[0], u[1]);
    for (int k = 0; k < 4; ++k) out.v[k] = Bits(sum[k]);
    return out;
  }

  // OpImageGather / OpImageDrefGather: the 2x2 footprint of linear filtering at the base level, in the order
  // (i0, j1), (i1, j1), (i1, j0), (i0, j0).
  Texel Gather(uint32_t component) const {
    float u[3];
    Scaled(0, u);
    const int32_t corner[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    Texel out;
    for (int k = 0; k < 4; ++k) {
      // With ConstOffsets, texel k is texel (i0, j0) of the footprint moved by offset k (GLSL's
      // textureGatherOffsets: "selecting the texel i0 j0 of that footprint").
      const bool moved = request_.hasGatherOffsets;
      const float du = moved ? static_cast<float>(request_.gatherOffsets[k][0]) : 0.0f;
      const float dv = moved ? static_cast<float>(request_.gatherOffsets[k][1]) : 0.0f;
      const int32_t i0 = FloorToTexel(u[0] + du - 0.5f), j0 = FloorToTexel(u[1] + dv - 0.5f);
      const Texel tap = Tap(0, i0 + (moved ? 0 : corner[k][0]), j0 + (moved ? 0 : corner[k][1]), 0, true);
      out.v[k] = request_.compare ? tap.v[0] : Swizzled(image_, tap).v[component & 3];
    }
    return out;
  }

 private:
  const ImageDescriptor& image_;
  const SamplerDescriptor& sampler_;
  const SampleRequest& request_;
  const Location& where_;
};

Texel Lerp(const Texel& a, const Texel& b, float delta) {
  Texel out;
  for (int k = 0; k < 4; ++k) out.v[k] = Bits(F(a.v[k]) * (1.0f - delta) + F(b.v[k]) * delta);
  return out;
}

}  // namespace

Texel Sample(const ImageDescriptor& image, const SamplerDescriptor& sampler, const SampleRequest& request) {
  if (!image.bound || !sampler.bound || image.levels == 0 || image.texelBuffer) return ZeroTexel();
  const Location where = Locate(image, request);
  LevelSampler level(image, sampler, request, where);
  if (request.gatherComponent >= 0) return level.Gather(static_cast<uint32_t>(request.gatherComponent));

  // 16.6.7 "Level-of-Detail Operation": lambda' = lambda_base + clamp(sampler bias + shader bias, ±maxSamplerLodBias),
  // lambda = clamp(lambda', max(minLod, MinLod operand), maxLod).
  float lambda = request.lod + std::clamp(sampler.mipLodBias + request.bias, -sampler.maxLodBias, sampler.maxLodBias);
  const float lowest = std::max(sampler.minLod, request.minLod);
  if (std::isnan(lambda)) lambda = lowest;
  lambda = std::min(std::max(lambda, lowest), sampler.maxLod);
  const VkFilter filter = lambda <= 0.0f ? sampler.magFilter : sampler.minFilter;
  const uint32_t q = image.levels - 1;
  auto finish = [&](const Texel& texel) { return request.compare ? texel : Swizzled(image, texel); };
  if (sampler.unnormalized || q == 0) return finish(level.Filter(0, filter));
  // 16.6.8 "Image Level(s) Selection": d' = clamp(lambda, 0, q) relative to the view's base level (and the view's
  // minimum LOD).
  const float dPrime = std::clamp(std::max(lambda, image.minLod), 0.0f, static_cast<float>(q));
  Texel result;
  if (sampler.mipmapMode == VK_SAMPLER_MIPMAP_MODE_NEAREST) {
    const uint32_t d = dPrime <= 0.5f ? 0u : static_cast<uint32_t>(std::ceil(dPrime + 0.5f)) - 1u;
    result = level.Filter(std::min(d, q), filter);
  } else {
    const uint32_t high = static_cast<uint32_t>(std::floor(dPrime));
    const uint32_t low = std::min(high + 1, q);
    const float delta = dPrime - static_cast<float>(high);
    result = level.Filter(high, filter);
    if (delta > 0.0f && image.kind == format::ValueKind::kFloat)
      result = Lerp(result, level.Filter(low, filter), delta);
  }
  return finish(result);
}

float LodFromGradients(const ImageDescriptor& image, Dim dim, const float dx[3], const float dy[3],
                       uint32_t count) {
  if (!image.bound || image.levels == 0) return 0.0f;
  const LevelView& base = image.level[0];
  const float size[3] = {static_cast<float>(base.width), static_cast<float>(base.height),
                         static_cast<float>(base.depth)};
  const uint32_t dims = std::min(count, dim == Dim::kCube ? 3u : DimensionCount(dim));
  float x = 0, y = 0;
  for (uint32_t i = 0; i < dims; ++i) {
    const float scale = dim == Dim::kCube ? size[0] * 0.5f : size[i];
    x += dx[i] * scale * dx[i] * scale;
    y += dy[i] * scale * dy[i] * scale;
  }
  const float squared = std::max(x, y);
  return squared > 0.0f ? HalfLog2(squared) : -128.0f;
}

void LodFromQuadGradients2D(const ImageDescriptor& image, const float* s, const float* t, uint32_t quads,
                            float* lambda) {
  if (!image.bound || image.levels == 0) {
    std::fill(lambda, lambda + quads, 0.0f);
    return;
  }
  const auto width = static_cast<float>(image.level[0].width), height = static_cast<float>(image.level[0].height);
  // LodFromGradients' operations in its order, a quad per iteration of a loop the compiler vectorises; the values
  // HalfLog2 leaves to libm (and the -128 of zero gradients) are patched afterwards.
  float squared[kMaxQuadsPerCall];
  uint32_t q = 0;
  using Float4 = HalfLog2Float4;
  for (; q + 4 <= quads; q += 4) {
    // Four quads' lanes 0, 1 and 2 gathered into vectors (a quad per element).
    auto lane = [](const float* v, uint32_t first, uint32_t i) {
      return Float4{v[4 * first + i], v[4 * first + 4 + i], v[4 * first + 8 + i], v[4 * first + 12 + i]};
    };
    const Float4 s0 = lane(s, q, 0), t0 = lane(t, q, 0);
    const Float4 dsx = lane(s, q, 1) - s0, dtx = lane(t, q, 1) - t0;
    const Float4 dsy = lane(s, q, 2) - s0, dty = lane(t, q, 2) - t0;
    Float4 x = Float4{} + 0.0f, y = Float4{} + 0.0f;
    x += dsx * width * dsx * width;
    y += dsy * width * dsy * width;
    x += dtx * height * dtx * height;
    y += dty * height * dty * height;
    const Float4 larger = x < y ? y : x;  // std::max(x, y): y only where x < y
    std::memcpy(&squared[q], &larger, sizeof larger);
    const Float4 result = HalfLog2Normal4(larger);
    std::memcpy(&lambda[q], &result, sizeof result);
  }
  for (; q < quads; ++q) {
    const float dsx = s[4 * q + 1] - s[4 * q], dtx = t[4 * q + 1] - t[4 * q];
    const float dsy = s[4 * q + 2] - s[4 * q], dty = t[4 * q + 2] - t[4 * q];
    float x = 0, y = 0;
    x += dsx * width * dsx * width;
    y += dsy * width * dsy * width;
    x += dtx * height * dtx * height;
    y += dty * height * dty * height;
    squared[q] = std::max(x, y);
    lambda[q] = HalfLog2Normal(squared[q]);
  }
  for (uint32_t q = 0; q < quads; ++q)
    if (!(squared[q] > 0.0f) || HalfLog2Edge(squared[q]))
      lambda[q] = squared[q] > 0.0f ? HalfLog2(squared[q]) : -128.0f;
}

}  // namespace crashtest::sampling
