// Reads through a device address taken from the push constants (buffer device address).
#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Values { uint v[]; };
layout(set = 0, binding = 0, std430) buffer Out { uint data[]; };
layout(push_constant) uniform Push { Values source; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    data[i] = pc.source.v[i] + 1u;
}
