// Reads a combined image sampler at points from a buffer: a point with w < 0 is an integer texel fetch of texel
// (x, y) at level z, any other a textureLod at (x, y) with LOD z. The block-compressed format cases fetch every
// texel of every level and sample between them through this one shader.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1, std430) readonly buffer Points { vec4 points[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Results { vec4 results[]; };
layout(push_constant) uniform Push { uint count; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= count) {
        return;
    }
    vec4 p = points[i];
    results[i] = p.w < 0.0 ? texelFetch(tex, ivec2(p.xy), int(p.z)) : textureLod(tex, p.xy, p.z);
}
