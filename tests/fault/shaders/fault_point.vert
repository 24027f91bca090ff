#version 450
// The vertex shader the draw-trigger tests use, with rasterisation discarded: no attachments needed.
void main() { gl_Position = vec4(float(gl_VertexIndex), 0.0, 0.0, 1.0); }
