// jacobi_stencil.comp — one Jacobi iteration of a 2D Poisson solve with a 5-point stencil.
// Exercises: neighbour loads with clamped boundaries, a residual reduction with a float atomic-free max via
// shared memory, barrier, ivec2 arithmetic, min/max/abs.
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(set = 0, binding = 0, std430) readonly buffer Phi { float phi[]; };
layout(set = 0, binding = 1, std430) readonly buffer Rhs { float rhs[]; };
layout(set = 0, binding = 2, std430) writeonly buffer PhiOut { float phi_out[]; };
layout(set = 0, binding = 3, std430) writeonly buffer Residual { float residual[]; };
layout(push_constant) uniform Push { ivec2 size; float h2; } pc;

shared float local_residual[256];

float at(ivec2 p) {
    p = clamp(p, ivec2(0), pc.size - 1);
    return phi[p.y * pc.size.x + p.x];
}

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint lid = gl_LocalInvocationIndex;
    float r = 0.0;
    if (all(lessThan(p, pc.size))) {
        float centre = at(p);
        float sum = at(p + ivec2(1, 0)) + at(p - ivec2(1, 0)) + at(p + ivec2(0, 1)) + at(p - ivec2(0, 1));
        float updated = 0.25 * (sum - pc.h2 * rhs[p.y * pc.size.x + p.x]);
        phi_out[p.y * pc.size.x + p.x] = updated;
        r = abs(updated - centre);
    }
    local_residual[lid] = r;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (lid < s) {
            local_residual[lid] = max(local_residual[lid], local_residual[lid + s]);
        }
        barrier();
    }
    if (lid == 0u) {
        residual[gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = local_residual[0];
    }
}
