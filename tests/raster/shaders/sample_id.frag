#version 450
// SampleId and SamplePosition turn sample shading on: each sample writes its own colour, and SampleMaskIn holds
// only the bit of the sample being shaded.
layout(location = 0) in vec4 vColor;
layout(location = 0) out vec4 outColor;
void main() {
  outColor = vec4(gl_SampleID == 1 ? vColor.r : 0.0, gl_SampleID == 2 ? gl_SamplePosition.x : 0.0,
                  gl_SampleID == 3 ? gl_SamplePosition.y : vColor.b * 0.5,
                  gl_SampleMaskIn[0] == (1 << gl_SampleID) ? 1.0 : 0.0);
}
