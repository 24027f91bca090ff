// 2D views of 3D images (VK_EXT_image_2d_view_of_3d): a 2D view of one depth slice and a 2D array view of four
// slices sampled linearly at points read from a buffer (xy: coordinates, z: array layer), and a storage 2D view of
// one slice of another 3D image written with each sample.
#version 450
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform sampler2D slice;
layout(set = 0, binding = 1) uniform sampler2DArray slices;
layout(set = 0, binding = 2, rgba32f) uniform writeonly image2D target;
layout(set = 0, binding = 3, std430) readonly buffer Points { vec4 points[]; };
layout(set = 0, binding = 4, std430) writeonly buffer Results { vec4 results[]; };

void main() {
    uint i = gl_GlobalInvocationID.y * 8 + gl_GlobalInvocationID.x;
    vec4 p = points[i];
    vec4 a = textureLod(slice, p.xy, 0.0);
    vec4 b = textureLod(slices, p.xyz, 0.0);
    results[2 * i] = a;
    results[2 * i + 1] = b;
    imageStore(target, ivec2(gl_GlobalInvocationID.xy), a + b);
}
