// phong.frag — Blinn-Phong lighting with albedo and normal maps and a light array.
// Exercises: combined image samplers with implicit-LOD texture(), tangent-space normal mapping (cross,
// normalize, mat3 construction), a loop over a UBO light array, pow/max/reflect, location outputs.
#version 450
layout(location = 0) in vec3 in_world_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 3) in vec3 in_tangent;
layout(location = 0) out vec4 out_colour;

struct Light { vec4 position; vec4 colour; };
layout(set = 0, binding = 0, std140) uniform Frame { mat4 view; mat4 projection; vec4 camera_position; } frame;
layout(set = 0, binding = 1, std140) uniform Lights { Light lights[4]; int count; } lights;
layout(set = 1, binding = 0) uniform sampler2D albedo_map;
layout(set = 1, binding = 1) uniform sampler2D normal_map;

void main() {
    vec3 n = normalize(in_normal);
    vec3 t = normalize(in_tangent - n * dot(n, in_tangent));
    mat3 tbn = mat3(t, cross(n, t), n);
    n = normalize(tbn * (texture(normal_map, in_uv).xyz * 2.0 - 1.0));
    vec3 albedo = texture(albedo_map, in_uv).rgb;
    vec3 v = normalize(frame.camera_position.xyz - in_world_position);
    vec3 colour = 0.05 * albedo;
    for (int i = 0; i < lights.count; ++i) {
        vec3 l = lights.lights[i].position.xyz - in_world_position;
        float d = length(l);
        l /= d;
        vec3 h = normalize(l + v);
        float diffuse = max(dot(n, l), 0.0);
        float specular = pow(max(dot(n, h), 0.0), 64.0);
        colour += (albedo * diffuse + specular) * lights.lights[i].colour.rgb / (1.0 + d * d);
    }
    out_colour = vec4(colour, 1.0);
}
