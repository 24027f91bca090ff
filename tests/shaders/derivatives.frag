// derivatives.frag — screen-space derivatives for anti-aliased grid lines and flat normals.
// Exercises: dFdx, dFdy, fwidth and their Fine/Coarse variants (DerivativeControl capability), cross of
// derivative vectors, interpolation qualifiers (smooth, noperspective, centroid, sample via SampleRateShading).
#version 450
layout(location = 0) in vec3 in_world_position;
layout(location = 1) noperspective in vec2 in_screen;
layout(location = 2) centroid in vec2 in_uv;
layout(location = 3) sample in float in_edge;
layout(location = 0) out vec4 out_colour;

void main() {
    vec2 grid = abs(fract(in_uv * 10.0 - 0.5) - 0.5) / fwidth(in_uv * 10.0);
    float line = 1.0 - min(min(grid.x, grid.y), 1.0);
    vec3 flat_normal = normalize(cross(dFdx(in_world_position), dFdy(in_world_position)));
    vec2 fine = vec2(dFdxFine(in_screen.x), dFdyFine(in_screen.y));
    vec2 coarse = vec2(dFdxCoarse(in_screen.x), dFdyCoarse(in_screen.y));
    float edge = fwidthFine(in_edge) + fwidthCoarse(in_edge);
    out_colour = vec4(flat_normal * 0.5 + 0.5, 1.0) * (1.0 - line) + vec4(abs(fine - coarse), edge, line);
}
