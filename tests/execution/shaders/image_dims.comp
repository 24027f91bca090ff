// Sampling every image dimensionality: 1D, 2D arrays (layer selection by rounding), cube maps (face selection from
// a direction), cube arrays and 3D images, each through its own combined image sampler.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) uniform sampler1D line;
layout(set = 0, binding = 1) uniform sampler2DArray layers;
layout(set = 0, binding = 2) uniform samplerCube cube;
layout(set = 0, binding = 3) uniform sampler3D volume;
layout(set = 0, binding = 4) uniform samplerCubeArray cubes;
layout(set = 0, binding = 5, std430) readonly buffer Points { vec4 points[]; };
layout(set = 0, binding = 6, std430) writeonly buffer Results { vec4 results[]; };
layout(push_constant) uniform Push { uint count; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= count) {
        return;
    }
    vec4 p = points[i];
    results[5 * i + 0] = textureLod(line, p.x, p.w);
    results[5 * i + 1] = textureLod(layers, p.xyz, p.w);
    results[5 * i + 2] = textureLod(cube, p.xyz * 2.0 - 1.0, 0.0);
    results[5 * i + 3] = textureLod(volume, p.xyz, 0.0);
    results[5 * i + 4] = textureLod(cubes, vec4(p.xyz * 2.0 - 1.0, p.w * 2.0), 0.0);
}
