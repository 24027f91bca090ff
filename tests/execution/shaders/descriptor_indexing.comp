// Descriptor indexing in compute: a runtime-sized array of storage buffers (the set's layout decides its size),
// indexed per invocation with nonuniformEXT and with a constant.
#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Inputs { uint v[]; } inputs[];
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; } result;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint which = (i * 7u) % 5u;
    result.r[i] = inputs[nonuniformEXT(which)].v[i] + inputs[2].v[i ^ 1u] * 3u;
}
