#version 450
// color.vert with the colour passed three times: with perspective (location 0), without (location 1), and to a
// Centroid input (location 2).
layout(location = 0) in vec4 inPosition;
layout(location = 1) in vec4 inColor;
layout(location = 0) out vec4 vColor;
layout(location = 1) noperspective out vec4 vLinear;
layout(location = 2) out vec4 vCentroid;
void main() {
  gl_Position = inPosition;
  vColor = inColor;
  vLinear = inColor;
  vCentroid = inColor;
}
