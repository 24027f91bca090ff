// interlock.frag — fragment shader interlock, a construct the IR does not represent (yet).
// Exercises: the clean "unsupported instruction" failure naming the opcode (OpBeginInvocationInterlockEXT).
#version 450
#extension GL_ARB_fragment_shader_interlock : require
layout(pixel_interlock_ordered) in;
layout(set = 0, binding = 0, r32ui) uniform coherent uimage2D counts;
layout(location = 0) out vec4 color;
void main() {
  beginInvocationInterlockARB();
  uint n = imageLoad(counts, ivec2(gl_FragCoord.xy)).x;
  imageStore(counts, ivec2(gl_FragCoord.xy), uvec4(n + 1u));
  endInvocationInterlockARB();
  color = vec4(float(n));
}
