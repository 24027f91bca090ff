#version 450
// Floating-point specialisation expressions on a boolean spec constant (defect 3 of issue 18): glslang emits
// OpSpecConstantOp Select with a float result and a vector one with a vector condition, which SPIRV-Tools'
// folding leaves alone; every driver must accept them.
layout(local_size_x = 1) in;
layout(constant_id = 0) const bool FLAG = false;
const float X = FLAG ? 1.0 : 0.0;
const vec2 V = FLAG ? vec2(3.0, 4.0) : vec2(5.0, 6.0);
layout(set = 0, binding = 0) buffer Out { float x; vec2 v; } result;
void main() {
  result.x = X;
  result.v = V;
}
