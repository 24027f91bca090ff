#version 450
layout(location = 0) in vec3 v_normal;
layout(location = 0) out vec4 colour;
void main() {
  const vec3 light = normalize(vec3(0.3, 0.8, 0.5));
  float lambert = max(dot(normalize(v_normal), light), 0.0);
  colour = vec4(vec3(0.2 + 0.8 * lambert), 1.0);
}
