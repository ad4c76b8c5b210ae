#version 450
layout(constant_id = 3) const float gain = 1.0;
layout(location = 0) in vec3 col;
layout(location = 1) uniform vec4 tint;
layout(location = 0) out vec4 o;
void main() {
  o = vec4(col * gain, 1.0) * tint;
}
