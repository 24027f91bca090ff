#version 450
// A second kernel with different code (so a different shader hash) for the shaderHash trigger tests.
layout(local_size_x = 128) in;
shared float scratch[128];
void main() {
  scratch[gl_LocalInvocationIndex] = float(gl_LocalInvocationIndex) * 0.5;
  barrier();
}
