// diamond.comp — an if/else diamond whose arms both store, so no optimiser can fold it away.
// Exercises: one selection construct (header, two arms, merge) for the dominator tests.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; } data;
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint v = data.values[i];
  if (v > 7u) {
    data.values[i] = v * 3u;
  } else {
    data.values[i + 1u] = v + 5u;
  }
  data.values[i + 2u] = v;
}
