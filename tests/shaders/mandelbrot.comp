// mandelbrot.comp — escape-time Mandelbrot set into a uint buffer (iterations) and a colour image.
// Exercises: a data-dependent loop with break, complex arithmetic on vec2, float/int conversions, log2 and
// smooth colouring, push constants describing the view, storage image writes with imageStore on rgba8.
#version 450
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, std430) writeonly buffer Iterations { uint iterations[]; };
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D colour_out;
layout(push_constant) uniform View {
    vec2 centre;
    float scale;
    uint max_iterations;
    uvec2 size;
} view;

void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= view.size.x || p.y >= view.size.y) {
        return;
    }
    vec2 c = view.centre + (vec2(p) - 0.5 * vec2(view.size)) * view.scale;
    vec2 z = vec2(0.0);
    uint n = 0u;
    while (n < view.max_iterations) {
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
        if (dot(z, z) > 256.0) {
            break;
        }
        ++n;
    }
    iterations[p.y * view.size.x + p.x] = n;
    float smooth_n = float(n) - log2(log2(max(dot(z, z), 1.0001))) + 4.0;
    float t = n == view.max_iterations ? 0.0 : smooth_n / float(view.max_iterations);
    vec3 colour = 0.5 + 0.5 * cos(6.28318 * (t + vec3(0.0, 0.33, 0.67)));
    imageStore(colour_out, ivec2(p), vec4(colour, 1.0));
}
