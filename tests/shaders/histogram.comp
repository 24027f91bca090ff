// histogram.comp — 256-bin byte histogram: per-workgroup bins in shared memory, merged with global atomics.
// Exercises: atomicAdd on workgroup (shared) and storage-buffer memory, byte extraction with bitfieldExtract,
// shared memory initialisation loops, barriers, uint arithmetic.
#version 450
layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer Bytes { uint words[]; };
layout(set = 0, binding = 1, std430) buffer Bins { uint bins[256]; };
layout(push_constant) uniform Push { uint word_count; } pc;

shared uint local_bins[256];

void main() {
    uint lid = gl_LocalInvocationID.x;
    local_bins[lid] = 0u;
    barrier();
    uint stride = gl_NumWorkGroups.x * 256u;
    for (uint i = gl_GlobalInvocationID.x; i < pc.word_count; i += stride) {
        uint w = words[i];
        for (int byte = 0; byte < 4; ++byte) {
            atomicAdd(local_bins[bitfieldExtract(w, byte * 8, 8)], 1u);
        }
    }
    barrier();
    uint count = local_bins[lid];
    if (count != 0u) {
        atomicAdd(bins[lid], count);
    }
}
