#version 450
// Two colour attachments with different values, each blended by its own state (independentBlend).
layout(location = 0) in vec4 vColor;
layout(location = 0) out vec4 outColor0;
layout(location = 1) out vec4 outColor1;
void main() {
  outColor0 = vColor;
  outColor1 = vec4(vColor.gbr, 0.5 + 0.5 * vColor.r);
}
