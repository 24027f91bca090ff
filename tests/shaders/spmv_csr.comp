// spmv_csr.comp — sparse matrix-vector product y = A x with A in CSR format, one row per invocation.
// Exercises: indirect (gather) loads through an index buffer, a loop whose bounds come from memory,
// a uniform-buffer scalar, integer-to-pointer style indexing, accumulation in a loop-carried float.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer RowPtr { uint row_ptr[]; };
layout(set = 0, binding = 1, std430) readonly buffer ColIdx { uint col_idx[]; };
layout(set = 0, binding = 2, std430) readonly buffer Vals { float vals[]; };
layout(set = 0, binding = 3, std430) readonly buffer X { float x[]; };
layout(set = 0, binding = 4, std430) writeonly buffer Y { float y[]; };
layout(set = 0, binding = 5, std140) uniform Params { uint rows; float beta; } params;

void main() {
    uint row = gl_GlobalInvocationID.x;
    if (row >= params.rows) {
        return;
    }
    uint begin = row_ptr[row];
    uint end = row_ptr[row + 1u];
    float sum = 0.0;
    for (uint k = begin; k < end; ++k) {
        sum += vals[k] * x[col_idx[k]];
    }
    y[row] = sum * params.beta;
}
