// alu.comp — an ALU-bound kernel for the interpreter's throughput: 1024 iterations of five float multiply/adds per
// invocation, one load and one store in all (BM_Throughput/alu).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float v[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = v[i];
  float y = x * 0.5;
  for (int k = 0; k < 1024; ++k) {
    x = x * 0.999 + y;
    y = y * 0.998 - x * 0.001;
  }
  v[i] = x + y;
}
