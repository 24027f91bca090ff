#version 450
// y = a * x + y with a uniform block, two storage buffers and a push constant.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) uniform Params { float a; uint count; } params;
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 1, binding = 0) buffer Y { float y[]; };
layout(push_constant) uniform Push { float bias; } push;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= 128u) return;
  y[i] = params.a * x[i] + y[i] + push.bias;
}
