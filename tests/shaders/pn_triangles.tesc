// pn_triangles.tesc — PN-triangle control points: computes the cubic Bezier patch for curved surfaces.
// Exercises: triangle patches (vertices = 3), patch arrays of vec3 outputs, a constant tessellation level from
// a push constant, per-invocation work with a switch on gl_InvocationID.
#version 450
layout(vertices = 3) out;

layout(location = 0) in vec3 in_normal[];
layout(location = 0) out vec3 out_normal[];
layout(location = 1) patch out vec3 out_b[7];   // b210 b120 b021 b012 b102 b201 b111

layout(push_constant) uniform Push { float level; } pc;

vec3 edge_point(vec3 pi, vec3 pj, vec3 ni) {
    return (2.0 * pi + pj - dot(pj - pi, ni) * ni) / 3.0;
}

void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    out_normal[gl_InvocationID] = in_normal[gl_InvocationID];
    vec3 p0 = gl_in[0].gl_Position.xyz;
    vec3 p1 = gl_in[1].gl_Position.xyz;
    vec3 p2 = gl_in[2].gl_Position.xyz;
    switch (gl_InvocationID) {
    case 0:
        out_b[0] = edge_point(p0, p1, in_normal[0]);
        out_b[1] = edge_point(p1, p0, in_normal[1]);
        gl_TessLevelOuter[0] = pc.level;
        gl_TessLevelInner[0] = pc.level;
        break;
    case 1:
        out_b[2] = edge_point(p1, p2, in_normal[1]);
        out_b[3] = edge_point(p2, p1, in_normal[2]);
        gl_TessLevelOuter[1] = pc.level;
        break;
    default:
        out_b[4] = edge_point(p2, p0, in_normal[2]);
        out_b[5] = edge_point(p0, p2, in_normal[0]);
        gl_TessLevelOuter[2] = pc.level;
        break;
    }
    vec3 e = (edge_point(p0, p1, in_normal[0]) + edge_point(p1, p0, in_normal[1]) + edge_point(p1, p2, in_normal[1])
            + edge_point(p2, p1, in_normal[2]) + edge_point(p2, p0, in_normal[2]) + edge_point(p0, p2, in_normal[0])) / 6.0;
    if (gl_InvocationID == 0) {
        out_b[6] = e + (e - (p0 + p1 + p2) / 3.0) * 0.5;
    }
}
