// bitonic_sort.comp — one global compare-and-swap step (j, k) of a bitonic sort over a key/value buffer.
// Exercises: push constants selecting the step, integer xor/and, comparisons, structs in storage buffers,
// conditional swaps (if/else nesting), early return.
#version 450
layout(local_size_x = 256) in;

struct Pair { uint key; uint value; };
layout(set = 0, binding = 0, std430) buffer Items { Pair items[]; };
layout(push_constant) uniform Step { uint j; uint k; uint count; } step_pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint partner = i ^ step_pc.j;
    if (partner <= i || partner >= step_pc.count) {
        return;
    }
    Pair a = items[i];
    Pair b = items[partner];
    bool ascending = (i & step_pc.k) == 0u;
    if (ascending) {
        if (a.key > b.key) {
            items[i] = b;
            items[partner] = a;
        }
    } else {
        if (a.key < b.key) {
            items[i] = b;
            items[partner] = a;
        }
    }
}
