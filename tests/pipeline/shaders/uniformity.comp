// uniformity.comp — values and branches whose uniformity across the subgroup is known by construction, for the
// uniformity (divergence) analysis test: a loop over push constants and uniform-address loads (uniform), a load
// at the invocation's own index (divergent), a subgroup reduction (uniform) and scan (divergent), one if/else on
// a divergent and one on a uniform condition (their phis follow), and the workgroup id (uniform).
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint count; float scale; } pc;
layout(set = 0, binding = 0) buffer Data { float values[]; } data;
layout(set = 0, binding = 1) uniform Params { float bias; } params;
void main() {
  uint gid = gl_GlobalInvocationID.x;
  float uniformSum = 0.0;
  for (uint i = 0u; i < pc.count; ++i) uniformSum += data.values[i] * pc.scale;
  float v = data.values[gid];
  float reduced = subgroupAdd(v);
  float scanned = subgroupInclusiveAdd(v);
  float w;
  if (v > params.bias) {
    w = v * 2.0;
  } else {
    w = uniformSum;
  }
  float u;
  if (uniformSum > params.bias) {
    u = uniformSum * 3.0;
  } else {
    u = pc.scale;
  }
  data.values[gid] = uniformSum + reduced + scanned + w + u + float(gl_WorkGroupID.x);
}
