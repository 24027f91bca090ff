#version 450
// A per-vertex corner and a per-instance offset and colour; the vertex index is passed flat.
layout(location = 0) in vec2 inCorner;
layout(location = 1) in vec4 inOffset;   // per instance
layout(location = 2) in vec4 inColor;    // per instance
layout(location = 0) out vec4 vColor;
layout(location = 1) flat out uint vVertex;
void main() {
  gl_Position = vec4(inCorner, 0.0, 1.0) + inOffset;
  vColor = inColor;
  vVertex = uint(gl_VertexIndex) + 16u * uint(gl_InstanceIndex);
}
