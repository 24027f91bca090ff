// Samples a cube map with linear filtering at directions read from a buffer (xyz: direction, w: explicit LOD), for
// the cube map edge handling cases: near a face's edges and corners the footprint reaches into the neighbouring
// faces (or, with a non-seamless sampler, stays on the face). Also gathers component 1 of the same footprint.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) uniform samplerCube tex;
layout(set = 0, binding = 1, std430) readonly buffer Points { vec4 points[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Results { vec4 results[]; };
layout(push_constant) uniform Push { uint count; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= count) {
        return;
    }
    vec4 p = points[i];
    results[2 * i] = textureLod(tex, p.xyz, p.w);
    results[2 * i + 1] = textureGather(tex, p.xyz, 1);
}
