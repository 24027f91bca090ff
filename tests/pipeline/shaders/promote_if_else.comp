#version 450
// Memory-to-register promotion: `x`, assigned in both arms of an if/else, becomes a phi at the merge block.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float values[]; };

void main() {
  uint id = gl_GlobalInvocationID.x;
  float x;
  if (values[id] > 0.5) {
    x = values[id] * 2.0;
  } else {
    x = values[id] + 7.0;
  }
  values[id] = x;
}
