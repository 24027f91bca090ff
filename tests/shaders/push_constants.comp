// push_constants.comp — a 128-byte push-constant block of mixed types driving a colour transform.
// Exercises: PushConstant storage class with scalar, vector, matrix and array members at std430 offsets,
// an explicit offset= layout, dynamic indexing into a push-constant array, loads of a whole matrix.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) buffer Colours { vec4 colours[]; };
layout(push_constant, std430) uniform Push {
    mat4 colour_matrix;          // 0..63
    vec4 bias;                   // 64
    float curve[4];              // 80
    uint count;                  // 96
    int mode;                    // 100
    layout(offset = 112) vec2 clamp_range;
} pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) {
        return;
    }
    vec4 c = pc.colour_matrix * colours[i] + pc.bias;
    int segment = clamp(int(c.r * 4.0), 0, 3);
    c.rgb *= pc.curve[segment];
    if (pc.mode == 1) {
        c.rgb = vec3(dot(c.rgb, vec3(0.299, 0.587, 0.114)));
    }
    colours[i] = clamp(c, vec4(pc.clamp_range.x), vec4(pc.clamp_range.y));
}
