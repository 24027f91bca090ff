#version 450
// Loop-carried values (phis) that may or may not share a slot with their back-edge value
// (src/execution/executable_builder_phis.cpp): each loop leaves different lanes at different iterations.
layout(local_size_x = 48) in;
layout(set = 0, binding = 0) buffer Out { uint result[]; };
layout(push_constant) uniform Push { uint limit; } pc;

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint trips = i % 7u + 1u;

  // 1. Shares: the counter and an accumulator, each updated once at the end of the body.
  uint acc = i;
  for (uint k = 0u; k < trips; ++k) acc = acc * 3u + k;

  // 2. Must not share: a swap, each phi feeding the other across the back edge.
  uint a = i, b = 1000u;
  for (uint k = 0u; k < trips; ++k) {
    uint t = a;
    a = b;
    b = t + 1u;
  }

  // 3. Must not share: the old value is still read after the new one is computed.
  uint p = i + 1u, seen = 0u;
  for (uint k = 0u; k < trips; ++k) {
    uint next = p * 2u + 1u;
    seen += next ^ p;
    p = next;
  }

  // 4. Must not share: lanes leave through a break after the new value exists and use the old one after the loop.
  uint v = i + 2u;
  for (uint k = 0u; k < 40u; ++k) {
    uint grown = v * 3u + 1u;
    if (grown > pc.limit) break;
    v = grown;
  }

  // 5. A loop inside a loop, each carrying its own values.
  uint outer = i;
  for (uint k = 0u; k < trips; ++k) {
    uint inner = outer;
    for (uint j = 0u; j <= k; ++j) inner = inner + j * 5u;
    outer = inner ^ k;
  }

  result[i * 6u + 0u] = acc;
  result[i * 6u + 1u] = a;
  result[i * 6u + 2u] = b;
  result[i * 6u + 3u] = seen;
  result[i * 6u + 4u] = v;
  result[i * 6u + 5u] = outer;
}
