// matrix_ops.comp — matrix algebra for a batch of transforms.
// Exercises: mat4/mat3/mat2 and non-square (mat3x4, mat4x3, mat2x3) types in std430 and std140 layouts,
// OpMatrixTimesMatrix/Vector/Scalar, OpVectorTimesMatrix, transpose, inverse, determinant, outerProduct,
// matrixCompMult, column access and per-element writes through access chains, row_major members.
#version 450
layout(local_size_x = 32) in;

layout(set = 0, binding = 0, std140) uniform Camera {
    mat4 view;
    mat4 projection;
    layout(row_major) mat3x4 row_major_extra;
} camera;
layout(set = 0, binding = 1, std430) readonly buffer Models { mat4 models[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Results {
    mat4 mvp[32];
    mat3 normal_matrix[32];
    vec4 misc[32];
    mat4x3 affine[32];
} results;

void main() {
    uint i = gl_LocalInvocationID.x;
    mat4 model = models[gl_GlobalInvocationID.x];
    mat4 mvp = camera.projection * camera.view * model;
    mat3 n = transpose(inverse(mat3(model)));
    float det = determinant(model);
    mat2 m2 = mat2(model[0].xy, model[1].xy);
    mat2 inv2 = inverse(m2);
    mat3 outer = outerProduct(model[0].xyz, model[1].xyz);
    mat3 comp = matrixCompMult(n, outer);
    vec4 p = mvp * vec4(1.0, 2.0, 3.0, 1.0);
    vec4 q = vec4(0.5) * model;                               // vector times matrix
    vec3 r = (camera.row_major_extra * p.xyz).xyz;           // mat3x4 * vec3 -> vec4
    mat2x3 m23 = mat2x3(r, comp[1]) * 2.0;
    results.mvp[i] = mvp;
    results.normal_matrix[i] = n + comp * det;
    results.normal_matrix[i][2][1] = inv2[1][0];
    results.misc[i] = vec4(p.x + q.y, r.z, m23[1].y, determinant(inv2));
    results.affine[i] = mat4x3(model) ;
}
