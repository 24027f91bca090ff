// terrain.tesc — distance-adaptive tessellation factors for quad terrain patches.
// Exercises: TessellationControl execution model (vertices = 4 output patch), gl_InvocationID,
// per-vertex outputs indexed by gl_InvocationID, patch outputs, gl_TessLevelOuter/Inner, barrier() in a
// tessellation control shader, reading other invocations' outputs after the barrier.
#version 450
layout(vertices = 4) out;

layout(location = 0) in vec2 in_uv[];
layout(location = 0) out vec2 out_uv[];
layout(location = 1) patch out float out_patch_lod;

layout(set = 0, binding = 0, std140) uniform Params { vec4 camera_position; float min_distance; float max_distance; float max_level; } params;

float level_for(vec4 a, vec4 b) {
    float d = distance(params.camera_position.xyz, 0.5 * (a.xyz + b.xyz));
    float t = clamp((d - params.min_distance) / (params.max_distance - params.min_distance), 0.0, 1.0);
    return mix(params.max_level, 1.0, t);
}

void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    out_uv[gl_InvocationID] = in_uv[gl_InvocationID];
    barrier();
    if (gl_InvocationID == 0) {
        float e0 = level_for(gl_out[3].gl_Position, gl_out[0].gl_Position);
        float e1 = level_for(gl_out[0].gl_Position, gl_out[1].gl_Position);
        float e2 = level_for(gl_out[1].gl_Position, gl_out[2].gl_Position);
        float e3 = level_for(gl_out[2].gl_Position, gl_out[3].gl_Position);
        gl_TessLevelOuter[0] = e0;
        gl_TessLevelOuter[1] = e1;
        gl_TessLevelOuter[2] = e2;
        gl_TessLevelOuter[3] = e3;
        gl_TessLevelInner[0] = 0.5 * (e1 + e3);
        gl_TessLevelInner[1] = 0.5 * (e0 + e2);
        out_patch_lod = max(max(e0, e1), max(e2, e3));
    }
}
