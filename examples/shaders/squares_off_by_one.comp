// squares_off_by_one.comp — the same kernel with a classic bug: "<=" writes one element past the buffer.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Values { uint values[]; };
layout(push_constant) uniform Push { uint count; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i <= pc.count) values[i] = i * i + 7u;
}
