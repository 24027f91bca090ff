#version 450
// Memory-to-register promotion: a struct local accessed through constant member indices is split into one SSA
// value per member (scalar replacement); the whole-struct copy `t = s` is rebuilt from the parts.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { vec4 values[]; };

struct Particle {
  vec3 position;
  float weight;
  vec2 velocity;
};

void main() {
  uint id = gl_GlobalInvocationID.x;
  Particle s;
  s.position = values[id].xyz;
  s.weight = values[id].w;
  s.velocity = vec2(1.0, 2.0);
  s.position.y += s.weight;
  Particle t = s;
  values[id] = vec4(t.position + vec3(t.velocity, 0.0), t.weight);
}
