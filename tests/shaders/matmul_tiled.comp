// matmul_tiled.comp — C = A * B for row-major float matrices, 16x16 tiles staged through shared memory.
// Exercises: specialisation constants (tile size via local_size_x_id/local_size_y_id; TILE may be lowered
// below the 16 the shared arrays are sized for, never raised),
// 2D shared arrays, nested loops (tile loop + inner product loop), barriers, push constants with matrix sizes,
// 2D workgroups, bounds checks with select-like ternaries.
#version 450
layout(local_size_x = 16, local_size_y = 16, local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 0) const uint TILE = 16u;
layout(constant_id = 1) const uint TILE_Y = 16u;

layout(set = 0, binding = 0, std430) readonly buffer A { float a[]; };
layout(set = 0, binding = 1, std430) readonly buffer B { float b[]; };
layout(set = 0, binding = 2, std430) writeonly buffer C { float c[]; };
layout(push_constant) uniform Dims { uint m; uint n; uint k; float alpha; } dims;

shared float tile_a[16][17];
shared float tile_b[16][17];

void main() {
    uint row = gl_GlobalInvocationID.y;
    uint col = gl_GlobalInvocationID.x;
    uint ty = gl_LocalInvocationID.y;
    uint tx = gl_LocalInvocationID.x;
    float acc = 0.0;
    uint tiles = (dims.k + TILE - 1u) / TILE;
    for (uint t = 0u; t < tiles; ++t) {
        uint ka = t * TILE + tx;
        uint kb = t * TILE + ty;
        tile_a[ty][tx] = (row < dims.m && ka < dims.k) ? a[row * dims.k + ka] : 0.0;
        tile_b[ty][tx] = (kb < dims.k && col < dims.n) ? b[kb * dims.n + col] : 0.0;
        barrier();
        for (uint i = 0u; i < TILE; ++i) {
            acc = fma(tile_a[ty][i], tile_b[i][tx], acc);
        }
        barrier();
    }
    if (row < dims.m && col < dims.n) {
        c[row * dims.n + col] = dims.alpha * acc;
    }
}
