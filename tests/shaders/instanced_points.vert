// instanced_points.vert — vertex-pulled instanced sprites with no vertex buffers at all.
// Exercises: gl_VertexIndex/gl_InstanceIndex built-ins, vertex pulling from a storage buffer, constant arrays
// indexed by gl_VertexIndex, gl_PointSize and gl_ClipDistance outputs, noperspective/flat outputs.
#version 450
layout(location = 0) noperspective out vec2 out_corner;
layout(location = 1) flat out uint out_instance;

out gl_PerVertex {
    vec4 gl_Position;
    float gl_PointSize;
    float gl_ClipDistance[1];
};

layout(set = 0, binding = 0, std430) readonly buffer Instances { vec4 centres[]; };   // xyz, w = size
layout(push_constant) uniform Push { mat4 view_projection; vec4 clip_plane; } pc;

const vec2 corners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main() {
    vec4 c = centres[gl_InstanceIndex];
    vec2 corner = corners[gl_VertexIndex % 6];
    vec4 world = vec4(c.xyz + vec3(corner * c.w, 0.0), 1.0);
    out_corner = corner;
    out_instance = uint(gl_InstanceIndex);
    gl_Position = pc.view_projection * world;
    gl_PointSize = c.w;
    gl_ClipDistance[0] = dot(world, pc.clip_plane);
}
