#version 450
#extension GL_EXT_multiview : require
layout(location = 0) in vec4 vColor;
layout(location = 0) out vec4 outColor;
void main() { outColor = vec4(vColor.rgb, gl_ViewIndex == 1 ? 0.25 : 1.0); }
