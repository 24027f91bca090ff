// fp16_int16.comp — half-precision colour grading and 16-bit integer quantisation.
// Exercises: GL_EXT_shader_explicit_arithmetic_types_float16/int16 (Float16, Int16 capabilities),
// 16-bit storage buffer access (StorageBuffer16BitAccess via GL_EXT_shader_16bit_storage), f16vec4 arithmetic,
// conversions f16<->f32<->i16<->u16, GLSL.std.450 on halfs (clamp, mix, pow, fma).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Pixels { f16vec4 pixels[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Quantised { u16vec4 quantised[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Deltas { int16_t deltas[]; };
layout(push_constant) uniform Grade { float exposure; float gamma; } grade;

void main() {
    uint i = gl_GlobalInvocationID.x;
    f16vec4 p = pixels[i];
    float16_t exposure = float16_t(grade.exposure);
    f16vec3 c = p.rgb * exposure;
    c = c / (c + f16vec3(1.0hf));                           // Reinhard
    c = pow(clamp(c, f16vec3(0.0hf), f16vec3(1.0hf)), f16vec3(float16_t(1.0 / grade.gamma)));
    float16_t luma = dot(c, f16vec3(0.2126hf, 0.7152hf, 0.0722hf));
    c = mix(f16vec3(luma), c, f16vec3(1.1hf));
    f16vec4 graded = f16vec4(fma(c, f16vec3(65535.0hf / 256.0hf), f16vec3(0.5hf)), p.a);
    quantised[i] = u16vec4(clamp(vec4(graded) * 256.0, vec4(0.0), vec4(65535.0)));
    int16_t before = int16_t(float(p.r) * 1000.0);
    int16_t after = int16_t(float(c.r) * 1000.0);
    deltas[i] = after - before;
}
