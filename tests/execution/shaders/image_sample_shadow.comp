// Depth comparison through a compare sampler: textureLod on a sampler2DShadow (OpImageSampleDrefExplicitLod) at
// points from a buffer (xy: coordinates, z: reference, w: LOD), and textureGather of the raw depth.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) uniform sampler2DShadow shadow;
layout(set = 0, binding = 1, std430) readonly buffer Points { vec4 points[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Results { vec4 results[]; };
layout(push_constant) uniform Push { uint count; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= count) {
        return;
    }
    vec4 p = points[i];
    float lit = textureLod(shadow, p.xyz, p.w);
    vec4 gathered = textureGather(shadow, p.xy, p.z);
    results[i] = vec4(lit, gathered.x + gathered.y, gathered.z + gathered.w, 0.0);
}
