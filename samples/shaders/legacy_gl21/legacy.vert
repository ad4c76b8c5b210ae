// legacy_gl21: vertex shader in GLSL 1.10 (OpenGL 2.1), glmark2 style: attribute/varying,
// a uniform mat4, no layout qualifiers (locations come from glBindAttribLocation).
// legacy_gl21.c prepends "#version 110", "#define LIGHT_COUNT 2" and a const declaration.

attribute vec3 position;
attribute vec3 normal;
attribute vec2 texcoord;

uniform mat4 ModelViewProjectionMatrix;
uniform mat4 ModelMatrix;           // rotation + translation only

varying vec3 v_world_pos;
varying vec3 v_normal;
varying vec2 v_texcoord;

void main(void)
{
    vec4 world = ModelMatrix * vec4(position, 1.0);
    v_world_pos = world.xyz;
    // GLSL 1.10 has no mat3(mat4) constructor: take the rotation through a w = 0 vector.
    v_normal = (ModelMatrix * vec4(normal, 0.0)).xyz;
    v_texcoord = texcoord;
    gl_Position = ModelViewProjectionMatrix * vec4(position, 1.0);
}
