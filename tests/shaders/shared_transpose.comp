// shared_transpose.comp — matrix transpose through a padded 32x33 shared tile (avoids bank conflicts).
// Exercises: 2D shared arrays with padding, a 32x8 workgroup where each invocation moves 4 elements in a
// constant-trip loop, barriers between the read and write phases, 2D index arithmetic.
#version 450
layout(local_size_x = 32, local_size_y = 8) in;

layout(set = 0, binding = 0, std430) readonly buffer In { float src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { float dst[]; };
layout(push_constant) uniform Push { uint width; uint height; } pc;

shared float tile[32][33];

void main() {
    uvec2 block = gl_WorkGroupID.xy * 32u;
    uint tx = gl_LocalInvocationID.x;
    uint ty = gl_LocalInvocationID.y;
    for (uint r = 0u; r < 32u; r += 8u) {
        uint x = block.x + tx;
        uint y = block.y + ty + r;
        if (x < pc.width && y < pc.height) {
            tile[ty + r][tx] = src[y * pc.width + x];
        }
    }
    barrier();
    for (uint r = 0u; r < 32u; r += 8u) {
        uint x = block.y + tx;
        uint y = block.x + ty + r;
        if (x < pc.height && y < pc.width) {
            dst[y * pc.height + x] = tile[tx][ty + r];
        }
    }
}
