#version 450
// Multisampled storage images (shaderStorageImageMultisample, tests/execution/storage_multisample_test.cpp): every
// sample of the invocation's texel written with OpImageWrite's Sample operand, then read back rotated by one
// sample with OpImageRead's, and the sample count queried.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba32f) uniform image2DMS img;
layout(set = 0, binding = 1) buffer Out { vec4 v[]; } outp;

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const int n = imageSamples(img);
  for (int s = 0; s < n; ++s) imageStore(img, p, s, vec4(p.x, p.y, s, p.x * 100 + p.y * 10 + s));
  const uint idx = gl_GlobalInvocationID.y * 8u + gl_GlobalInvocationID.x;
  for (int s = 0; s < 4; ++s) outp.v[idx * 5u + uint(s)] = imageLoad(img, p, (s + 1) % n);
  outp.v[idx * 5u + 4u] = vec4(float(n));
}
