// wireframe.geom — single-pass wireframe: passes triangles through with distances to each edge, and
// layered rendering into a cube map face.
// Exercises: triangles input with gl_in[3], invocations (geometry instancing via gl_InvocationID), gl_Layer
// output, viewport-space edge distance maths, a nested loop of EmitVertex with one EndPrimitive per triangle.
#version 450
layout(triangles, invocations = 2) in;
layout(triangle_strip, max_vertices = 3) out;

layout(location = 0) in vec3 in_colour[];
layout(location = 0) out vec3 out_colour;
layout(location = 1) noperspective out vec3 out_edge_distance;

layout(push_constant) uniform Push { vec2 viewport; } pc;

void main() {
    vec2 p[3];
    for (int i = 0; i < 3; ++i) {
        p[i] = pc.viewport * gl_in[i].gl_Position.xy / gl_in[i].gl_Position.w;
    }
    float area = abs((p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[2].x - p[0].x) * (p[1].y - p[0].y));
    for (int i = 0; i < 3; ++i) {
        vec2 a = p[(i + 1) % 3];
        vec2 b = p[(i + 2) % 3];
        float h = area / max(length(b - a), 1e-6);
        vec3 d = vec3(0.0);
        d[i] = h;
        out_edge_distance = d;
        out_colour = in_colour[i];
        gl_Position = gl_in[i].gl_Position;
        gl_Layer = gl_InvocationID;
        EmitVertex();
    }
    EndPrimitive();
}
