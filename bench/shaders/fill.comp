#version 450
// Writes its invocation index: the smallest kernel with a storage buffer.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Output { uint values[]; } out_buffer;
void main() {
  out_buffer.values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u + 1u;
}
