// function_calls.comp — a ray/sphere tracer split into helper functions, called from loops.
// Exercises: OpFunction/OpFunctionCall with in, out and inout parameters, a struct returned by value, a helper
// called from several sites, a helper with an early return inside a loop, helpers calling helpers, arrays
// passed by value (copied into Function storage).
#version 450
layout(local_size_x = 8, local_size_y = 8) in;

struct Ray { vec3 origin; vec3 dir; };
struct Hit { float t; vec3 normal; int index; };

layout(set = 0, binding = 0, std430) readonly buffer Spheres { vec4 spheres[]; };   // xyz centre, w radius
layout(set = 0, binding = 1, std430) writeonly buffer Image { vec4 pixels[]; };
layout(push_constant) uniform Push { uint width; uint height; uint sphere_count; } pc;

bool intersect_sphere(Ray ray, vec4 sphere, out float t) {
    vec3 oc = ray.origin - sphere.xyz;
    float b = dot(oc, ray.dir);
    float c = dot(oc, oc) - sphere.w * sphere.w;
    float disc = b * b - c;
    t = 0.0;
    if (disc < 0.0) {
        return false;
    }
    float s = sqrt(disc);
    t = -b - s;
    if (t < 1e-3) {
        t = -b + s;
    }
    return t > 1e-3;
}

Hit trace(Ray ray) {
    Hit best = Hit(1e30, vec3(0.0), -1);
    for (uint i = 0u; i < pc.sphere_count; ++i) {
        float t;
        if (intersect_sphere(ray, spheres[i], t) && t < best.t) {
            best.t = t;
            best.index = int(i);
            best.normal = normalize(ray.origin + t * ray.dir - spheres[i].xyz);
        }
    }
    return best;
}

void shade(Hit hit, inout vec3 colour, inout float weight) {
    if (hit.index < 0) {
        colour += weight * vec3(0.6, 0.7, 0.9);
        weight = 0.0;
        return;
    }
    float light = max(dot(hit.normal, normalize(vec3(1.0, 1.0, -1.0))), 0.0);
    colour += weight * light * vec3(0.9, 0.6, 0.3);
    weight *= 0.5;
}

float average(float values[4]) {
    float s = 0.0;
    for (int i = 0; i < 4; ++i) {
        s += values[i];
    }
    return s * 0.25;
}

void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= pc.width || p.y >= pc.height) {
        return;
    }
    vec2 uv = (vec2(p) + 0.5) / vec2(pc.width, pc.height) * 2.0 - 1.0;
    Ray ray = Ray(vec3(0.0, 0.0, -3.0), normalize(vec3(uv, 1.5)));
    vec3 colour = vec3(0.0);
    float weight = 1.0;
    for (int bounce = 0; bounce < 3 && weight > 0.0; ++bounce) {
        Hit hit = trace(ray);
        shade(hit, colour, weight);
        if (hit.index >= 0) {
            vec3 at = ray.origin + hit.t * ray.dir;
            ray = Ray(at + hit.normal * 1e-3, reflect(ray.dir, hit.normal));
        }
    }
    float lum[4] = float[](colour.r, colour.g, colour.b, weight);
    pixels[p.y * pc.width + p.x] = vec4(colour, average(lum));
}
