// bda_saxpy.comp — saxpy over raw device addresses, with pointer arithmetic on uint64 addresses.
// Exercises: GL_EXT_buffer_reference with buffer_reference_align, casting uint64_t <-> reference types,
// address arithmetic (base + i * stride), GL_EXT_buffer_reference_uvec2 construction from a uvec2,
// loads/stores in the PhysicalStorageBuffer storage class with no descriptors at all.
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer FloatRef { float v; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Vec4Array { vec4 v[]; };

layout(push_constant) uniform Push {
    uint64_t x_address;
    uvec2 y_address;     // the same kind of address, split into two 32-bit halves
    Vec4Array coefficients;
    uint n;
} pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n) {
        return;
    }
    float a = pc.coefficients.v[0].x;
    FloatRef x = FloatRef(pc.x_address + uint64_t(i) * 4ul);
    FloatRef y = FloatRef(pc.y_address) ;
    y = FloatRef(uint64_t(y) + uint64_t(i) * 4ul);
    y.v = fma(a, x.v, y.v);
}
