// Samples an integer texture (usampler2D, nearest filtering) at points read from a buffer: integer formats and the
// integer border colours.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) uniform usampler2D tex;
layout(set = 0, binding = 1, std430) readonly buffer Points { vec4 points[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Results { uvec4 results[]; };
layout(push_constant) uniform Push { uint count; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= count) {
        return;
    }
    vec4 p = points[i];
    results[i] = textureLod(tex, p.xy, 0.0) + textureGather(tex, p.zw, 1);
}
