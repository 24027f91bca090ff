// particle_update.comp — explicit Euler particle integration with gravity, drag, ground bounce and respawn.
// Exercises: array-of-struct storage buffer (vec4/vec3 members, std430), UBO with simulation parameters,
// push constants, vector math (length, normalize, dot, reflect), conditionals, float<->uint hashing.
#version 450
layout(local_size_x = 64) in;

struct Particle {
    vec4 position;   // xyz, w = life
    vec4 velocity;   // xyz, w = mass
    vec3 colour;
    uint seed;
};
layout(set = 0, binding = 0, std430) buffer Particles { Particle particles[]; };
layout(set = 0, binding = 1, std140) uniform Params {
    vec4 gravity;
    vec4 emitter;
    float drag;
    float restitution;
    uint count;
} params;
layout(push_constant) uniform Push { float dt; float time; } pc;

uint hash(uint x) {
    x ^= x >> 16u;
    x *= 0x7feb352du;
    x ^= x >> 15u;
    x *= 0x846ca68bu;
    x ^= x >> 16u;
    return x;
}

float rand01(inout uint state) {
    state = hash(state);
    return float(state) / 4294967295.0;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.count) {
        return;
    }
    Particle p = particles[i];
    vec3 v = p.velocity.xyz;
    vec3 force = params.gravity.xyz * p.velocity.w - params.drag * v * length(v);
    v += force / max(p.velocity.w, 1e-3) * pc.dt;
    vec3 x = p.position.xyz + v * pc.dt;
    if (x.y < 0.0) {
        x.y = -x.y;
        v = reflect(v, vec3(0.0, 1.0, 0.0)) * params.restitution;
    }
    float life = p.position.w - pc.dt;
    if (life <= 0.0) {
        uint s = p.seed ^ floatBitsToUint(pc.time);
        vec3 dir = normalize(vec3(rand01(s) - 0.5, 1.0, rand01(s) - 0.5));
        x = params.emitter.xyz;
        v = dir * (2.0 + 3.0 * rand01(s));
        life = 1.0 + rand01(s) * 4.0;
        p.seed = s;
    }
    p.position = vec4(x, life);
    p.velocity.xyz = v;
    p.colour = mix(vec3(1.0, 0.3, 0.0), vec3(0.2, 0.2, 1.0), clamp(dot(v, v) / 25.0, 0.0, 1.0));
    particles[i] = p;
}
