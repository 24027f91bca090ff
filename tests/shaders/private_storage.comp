// private_storage.comp — an LCG random walk using module-scope (Private) state and Function-scope tables.
// Exercises: global non-constant variables (Private storage class) read and written from helper functions,
// global initialisers, const lookup tables with dynamic indexing (OpConstantComposite copied to Function),
// Function-storage arrays written in a loop, loads/stores that an optimiser may promote to SSA.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) writeonly buffer Walks { vec2 endpoints[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Visits { uint visit_counts[]; };
layout(push_constant) uniform Push { uint seed; uint steps; } pc;

uint rng_state;                  // Private
vec2 position = vec2(0.0);       // Private, with initialiser
uint quadrant_visits[4];         // Private array

const vec2 directions[8] = vec2[](vec2(1, 0), vec2(-1, 0), vec2(0, 1), vec2(0, -1),
                                  vec2(0.7071, 0.7071), vec2(-0.7071, 0.7071),
                                  vec2(0.7071, -0.7071), vec2(-0.7071, -0.7071));

uint next_random() {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8u;
}

void step_once() {
    position += directions[next_random() & 7u];
    uint q = (position.x >= 0.0 ? 0u : 1u) + (position.y >= 0.0 ? 0u : 2u);
    quadrant_visits[q] += 1u;
}

void main() {
    rng_state = pc.seed ^ (gl_GlobalInvocationID.x * 747796405u);
    for (int q = 0; q < 4; ++q) {
        quadrant_visits[q] = 0u;
    }
    float history[16];
    for (uint s = 0u; s < pc.steps; ++s) {
        step_once();
        history[s & 15u] = length(position);
    }
    float peak = 0.0;
    for (int h = 0; h < 16; ++h) {
        peak = max(peak, history[h]);
    }
    endpoints[gl_GlobalInvocationID.x] = position + vec2(0.0, peak * 0.0);
    for (int q = 0; q < 4; ++q) {
        visit_counts[gl_GlobalInvocationID.x * 4u + uint(q)] = quadrant_visits[q];
    }
}
