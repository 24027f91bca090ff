#version 450
// Under sample shading FragCoord is the location of the sample being shaded: the squares of its fractional part
// average to another value than the pixel centre's (0.25 + 0.25) once the samples are resolved.
layout(location = 0) in vec4 vColor;
layout(location = 0) out vec4 outColor;
void main() {
  vec2 f = fract(gl_FragCoord.xy);
  outColor = vec4(vColor.rgb * (f.x * f.x + f.y * f.y), 1.0);
}
