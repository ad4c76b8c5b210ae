#version 450
layout(location = 0) in vec2 pos;
layout(location = 0) uniform float angle;
layout(location = 0) out vec3 col;
void main() {
  float c = cos(angle), s = sin(angle);
  gl_Position = vec4(c * pos.x - s * pos.y, s * pos.x + c * pos.y, 0.0, 1.0);
  col = vec3(0.5 + 0.5 * pos, 0.25);
}
