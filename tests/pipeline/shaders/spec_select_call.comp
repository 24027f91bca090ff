#version 450
// spec_select.comp with a function call: the module then goes through SPIRV-Tools (inlining and its spec-constant
// passes) before the freezer finishes the Select that SPIRV-Tools leaves.
layout(local_size_x = 1) in;
layout(constant_id = 0) const bool FLAG = false;
const float X = FLAG ? 1.0 : 0.0;
const vec2 V = FLAG ? vec2(3.0, 4.0) : vec2(5.0, 6.0);
layout(set = 0, binding = 0) buffer Out { float x; vec2 v; } result;
float Scaled(float s) { return X * s; }
void main() {
  result.x = Scaled(1.0);
  result.v = V;
}
