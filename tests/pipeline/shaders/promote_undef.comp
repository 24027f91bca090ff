#version 450
// Memory-to-register promotion: `x` is only assigned on one path, so the merge reads undef from the other.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float values[]; };

void main() {
  uint id = gl_GlobalInvocationID.x;
  float x;
  if (values[id] > 0.5) x = 3.0;
  values[id] = x;
}
