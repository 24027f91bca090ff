// An off-by-one write: the last invocation writes one element past the end of the bound range.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Out { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    data[i + 1u] = i;
}
