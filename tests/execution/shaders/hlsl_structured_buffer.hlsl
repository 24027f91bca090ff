// An HLSL compute shader as DXC-style toolchains emit it (glslang -D, SPV_GOOGLE_hlsl_functionality1 semantics):
// structured buffers, a constant buffer and SV_DispatchThreadID.
struct Particle {
    float3 position;
    float speed;
};

cbuffer Params : register(b0) {
    float dt;
    uint count;
};

RWStructuredBuffer<Particle> particles : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (id.x >= count) {
        return;
    }
    Particle p = particles[id.x];
    p.position += float3(p.speed, -p.speed * 0.5, p.speed * 0.25) * dt;
    p.speed = lerp(p.speed, length(p.position), 0.125);
    particles[id.x] = p;
}
