#version 450
// Push descriptors (tests/execution/push_descriptor_test.cpp): set 0 is pushed (a source buffer, a destination
// buffer, a storage image), set 1 is an ordinary descriptor set bound after the first push.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) readonly buffer Src { uint v[]; } src;
layout(set = 0, binding = 1) buffer Dst { uint v[]; } dst;
layout(set = 0, binding = 2, rgba32f) uniform image2D img;
layout(set = 1, binding = 0) uniform Scale { uint mul; } scale;
layout(push_constant) uniform Push { uint tag; } pc;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  const vec4 texel = imageLoad(img, ivec2(i, 0));
  dst.v[i] = src.v[i] * scale.mul + pc.tag + uint(texel.x);
  imageStore(img, ivec2(i, 0), texel + vec4(float(pc.tag)));
}
