#version 450
// The compute kernel the command-trigger tests dispatch: no descriptors, so any pipeline layout fits.
layout(local_size_x = 64) in;
shared uint scratch[64];
void main() {
  scratch[gl_LocalInvocationIndex] = gl_LocalInvocationIndex * 3u;
  barrier();
}
