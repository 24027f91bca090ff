// specialized_size.comp — a workgroup size and a loop bound that come from specialisation constants.
// Exercises: local_size_x_id, a spec-constant loop bound (trip count after specialisation).
#version 450
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const int kIterations = 4;
layout(set = 0, binding = 0) buffer Data { float values[]; } data;
void main() {
  uint i = gl_GlobalInvocationID.x;
  float sum = 0.0;
  [[dont_unroll]] for (int k = 0; k < kIterations; ++k) sum += data.values[i + uint(k)] * float(k);
  data.values[i] = sum;
}
