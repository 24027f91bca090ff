#version 450
// Buffer accesses the executable builder fuses with their address (ops_fused_memory.cpp): consecutive elements,
// gathered and scattered ones, an index computed from a push constant (negative for the fault tests), a last
// subgroup cut short by the element count, and fixed-pointer loads (a uniform member, push constants).
layout(local_size_x = 96) in;  // not a multiple of 64: at that subgroup size, the second subgroup is cut short
layout(set = 0, binding = 0) readonly buffer Values { float values[]; };
layout(set = 0, binding = 1) readonly buffer Perm { uint perm[]; };
layout(set = 0, binding = 2) buffer Doubled { float doubled[]; };
layout(set = 0, binding = 3) buffer Gathered { float gathered[]; };
layout(set = 0, binding = 4) buffer LastWriter { uint lastWriter[]; };
layout(set = 0, binding = 5) buffer Shifted { float shifted[]; };
layout(set = 0, binding = 6) uniform Params { float scale; uint count; } params;
layout(set = 0, binding = 7) buffer LineRead { uint lineRead[]; };
layout(set = 0, binding = 8) buffer TileRead { uint tileRead[]; };
layout(push_constant) uniform Push { int shift; float bias; } pc;

shared uint line[96];     // one word per invocation of the workgroup
shared uint tile[4][24];  // the same, as a two-index chain

void main() {
  uint local = gl_LocalInvocationIndex;
  line[local] = local + 1000u;
  tile[local / 24u][local % 24u] = local + 2000u;
  barrier();
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.count) return;
  doubled[i] = values[i] * params.scale + pc.bias;
  gathered[i] = values[perm[i]];
  lastWriter[i / 4u] = i;  // four lanes write each word: the highest invocation's value stays
  shifted[i] = values[int(i) + pc.shift];
  lineRead[i] = line[int(local) + pc.shift];  // outside the array at an end: reads zero
  uint mirror = 95u - local;
  tileRead[i] = tile[mirror / 24u][mirror % 24u];
}
