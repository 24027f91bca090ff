// composites.comp — building, indexing and rewriting structs, arrays and vectors.
// Exercises: OpCompositeConstruct/Extract/Insert, OpVectorShuffle (swizzles incl. writes to swizzles),
// OpVectorExtractDynamic/InsertDynamic (v[i] with a runtime i), nested structs containing arrays, arrays of
// structs in Function storage with dynamic indices (OpAccessChain on Function variables), struct copies,
// whole-struct loads/stores from a storage buffer, .length() of arrays.
#version 450
layout(local_size_x = 64) in;

struct Inner { vec3 axis; float angle; };
struct Outer { Inner parts[3]; ivec2 ids; float weights[4]; };

layout(set = 0, binding = 0, std430) readonly buffer Input { Outer items[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Output { Outer transformed[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Summary { vec4 summary[]; };

void main() {
    uint id = gl_GlobalInvocationID.x;
    Outer o = items[id];
    Inner local_parts[3] = o.parts;
    int pick = int(id % 3u);
    Inner chosen = local_parts[pick];
    chosen.axis = chosen.axis.zxy;
    chosen.axis.xz = vec2(chosen.angle, -chosen.angle);
    local_parts[(pick + 1) % 3] = chosen;
    vec4 v = vec4(chosen.axis, chosen.angle);
    v[pick] += 1.0;                                       // dynamic insert
    float w = o.weights[o.ids.x & 3];                     // dynamic extract from array
    float e = v[o.ids.y & 3];                             // dynamic extract from vector
    vec4 sw = v.wzyx + v.xxyy * vec4(w, e, 1.0, 0.0);
    for (int i = 0; i < o.weights.length(); ++i) {
        o.weights[i] = o.weights[i] * sw[i];
    }
    o.parts = local_parts;
    o.ids = o.ids.yx;
    transformed[id] = o;
    summary[id] = vec4(sw.xy, float(local_parts.length()), dot(sw, v));
}
