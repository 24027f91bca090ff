#version 450
// An input decorated Sample gets a value per covered sample, interpolated at the sample: with steep colours its
// fraction differs from sample to sample.
layout(location = 0) sample in vec4 vColor;
layout(location = 0) out vec4 outColor;
void main() { outColor = vec4(fract(vColor.rgb), 1.0); }
