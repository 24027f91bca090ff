#version 450
// Dual-source blending: Location 0 Index 0 is the source colour, Index 1 the second source the SRC1 factors read.
layout(location = 0) in vec4 vColor;
layout(location = 0, index = 0) out vec4 outColor;
layout(location = 0, index = 1) out vec4 outFactor;
void main() {
  outColor = vColor;
  outFactor = vec4(vColor.bgr * 0.75, 1.0 - vColor.a * 0.5);
}
