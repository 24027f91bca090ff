// uniform_buffer.comp — skinning matrices from a std140 UBO and an array of UBO descriptors.
// Exercises: Uniform storage class with std140 padding (vec3 + float, arrays of vec4, mat4 arrays),
// a descriptor array of uniform blocks indexed by a constant and a dynamically uniform index,
// access chains into nested UBO members.
#version 450
layout(local_size_x = 64) in;

struct Light { vec3 position; float radius; vec3 colour; float intensity; };
layout(set = 0, binding = 0, std140) uniform Bones { mat4 bones[64]; uint bone_count; } bones;
layout(set = 0, binding = 1, std140) uniform Lights { Light lights[8]; ivec4 light_count; } light_sets[2];
layout(set = 1, binding = 0, std430) readonly buffer Vertices { vec4 positions[]; };
layout(set = 1, binding = 1, std430) readonly buffer Joints { uvec4 joints[]; };
layout(set = 1, binding = 2, std430) writeonly buffer Out { vec4 lit[]; };
layout(push_constant) uniform Push { uint light_set; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 j = min(joints[i], uvec4(bones.bone_count - 1u));
    vec4 p = positions[i];
    vec4 skinned = 0.25 * (bones.bones[j.x] * p + bones.bones[j.y] * p + bones.bones[j.z] * p + bones.bones[j.w] * p);
    vec3 result = vec3(0.0);
    uint set_index = pc.light_set & 1u;
    int count = light_sets[set_index].light_count.x;
    for (int l = 0; l < count && l < 8; ++l) {
        Light light = light_sets[set_index].lights[l];
        float d = distance(light.position, skinned.xyz);
        float atten = clamp(1.0 - d / light.radius, 0.0, 1.0);
        result += light.colour * light.intensity * atten * atten;
    }
    result += light_sets[0].lights[0].colour * 0.01;
    lit[i] = vec4(result, skinned.w);
}
