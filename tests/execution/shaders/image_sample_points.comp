// Samples a combined image sampler at points read from a buffer (xy: coordinates, z: explicit LOD, w: LOD bias
// applied through the sampler's own bias when the case sets one), for the sampler differential cases: every
// address mode, border colour, filter and mipmap mode runs through this one shader.
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
    results[i] = textureLod(tex, p.xy, p.z);
}
