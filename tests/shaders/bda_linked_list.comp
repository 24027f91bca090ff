// bda_linked_list.comp — walks per-invocation linked lists through buffer device addresses and sums them.
// Exercises: GL_EXT_buffer_reference (PhysicalStorageBuffer storage class, pointer-typed struct members,
// null checks via uint64 conversion), GL_EXT_shader_explicit_arithmetic_types_int64, a while loop whose exit
// depends on loaded pointers, push constants carrying a device address.
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node {
    vec4 payload;
    Node next;
};
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Heads { Node heads[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer Sums { vec4 sums[]; };

layout(push_constant) uniform Push {
    Heads heads;
    Sums sums;
    uint list_count;
    uint max_length;
} pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.list_count) {
        return;
    }
    Node n = pc.heads.heads[i];
    vec4 total = vec4(0.0);
    uint steps = 0u;
    while (uint64_t(n) != 0ul && steps < pc.max_length) {
        total += n.payload;
        n = n.next;
        ++steps;
    }
    pc.sums.sums[i] = total;
}
