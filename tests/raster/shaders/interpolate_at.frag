#version 450
// The interpolation functions: at an offset from the pixel centre, at a sample, at the centroid (steep colours, so
// a quarter of a pixel shows); and an input decorated Centroid.
layout(location = 0) in vec4 vColor;
layout(location = 1) noperspective in vec4 vLinear;
layout(location = 2) centroid in vec4 vCentroid;
layout(location = 0) out vec4 outColor;
void main() {
  outColor = vec4(fract(interpolateAtOffset(vColor, vec2(0.25, -0.125)).r),
                  fract(interpolateAtSample(vColor, 2).g),
                  fract(interpolateAtCentroid(vColor).b + interpolateAtOffset(vLinear, vec2(-0.375, 0.3125)).b),
                  fract(vCentroid.r + vCentroid.g));
}
