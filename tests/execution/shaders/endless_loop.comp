// A loop whose exit condition never holds: data[0] stays 0, so the GPU would hang.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Data { uint data[]; };
void main() {
    uint n = 0u;
    while (data[0] == 0u) {
        n += 1u;
        data[1 + (n & 7u)] = n;
    }
}
