// spec_constants.comp — a filter whose size, flags and workgroup shape are specialisation constants.
// Exercises: OpSpecConstant/True/False (bool, int, uint, float), local_size_x_id (WorkgroupSize built from
// spec constants), OpSpecConstantOp expressions (arithmetic on spec constants), an array sized by a spec
// constant expression, branches on spec-constant booleans, loops with spec-constant trip counts.
#version 450
layout(local_size_x = 64, local_size_x_id = 0) in;
layout(constant_id = 0) const uint WORKGROUP_X = 64u;
layout(constant_id = 1) const int RADIUS = 3;
layout(constant_id = 2) const bool NORMALISE = true;
layout(constant_id = 3) const float SCALE = 1.5;
layout(constant_id = 4) const bool USE_SHARED = false;

const int TAPS = 2 * RADIUS + 1;                 // OpSpecConstantOp
const uint SHARED_SIZE = WORKGROUP_X + 16u;      // OpSpecConstantOp

layout(set = 0, binding = 0, std430) readonly buffer Input { float src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Output { float dst[]; };

shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint lid = gl_LocalInvocationID.x;
    if (USE_SHARED) {
        cache[lid] = src[i];
        barrier();
    }
    float acc = 0.0;
    float weight_sum = 0.0;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
        float w = 1.0 / float(1 + abs(k));
        int idx = max(int(i) + k, 0);
        float v = USE_SHARED && uint(int(lid) + k) < WORKGROUP_X ? cache[uint(int(lid) + k)] : src[idx];
        acc += w * v;
        weight_sum += w;
    }
    if (NORMALISE) {
        acc /= weight_sum;
    }
    dst[i] = acc * SCALE + float(TAPS) * 1e-6;
}
