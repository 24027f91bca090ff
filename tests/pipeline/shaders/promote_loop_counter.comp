#version 450
// Memory-to-register promotion: the loop counter `i` and the accumulator `sum` become phis in the loop header.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float values[]; };
layout(push_constant) uniform Push { int count; };

void main() {
  float sum = 0.0;
  for (int i = 0; i < count; ++i) sum += values[i];
  values[gl_GlobalInvocationID.x] = sum;
}
