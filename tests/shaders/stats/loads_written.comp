// stats/loads_written.comp — loads_readonly, with the source buffer also written at the end (family 'loads').
// Statistics family 'loads' (loads_readonly/loads_written): only whether the shader also writes the buffer it loads
// from varies. Here it never does: the loads read memory no store can change (NIR's nir_opt_access makes them
// ACCESS_CAN_REORDER), so ACO's scheduler issues every load before the stores, and all eight vec4 results are in
// flight together (32 VGPRs on RDNA2). In loads_written the loads may alias the stores and keep their order: one
// load in flight at a time.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Source { vec4 source[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Destination { vec4 destination[]; };

void main() {
    uint i = gl_GlobalInvocationID.x * 8u;
    destination[i + 0u] = source[i + 0u] * 2.0;
    destination[i + 1u] = source[i + 1u] * 3.0;
    destination[i + 2u] = source[i + 2u] * 4.0;
    destination[i + 3u] = source[i + 3u] * 5.0;
    destination[i + 4u] = source[i + 4u] * 6.0;
    destination[i + 5u] = source[i + 5u] * 7.0;
    destination[i + 6u] = source[i + 6u] * 8.0;
    destination[i + 7u] = source[i + 7u] * 9.0;
    source[i] = vec4(0.0);
}
