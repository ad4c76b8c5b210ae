#version 400 core
// vs: vs_330.vert
// GLSL 4.00 textureQueryLod on a mipmapped texture (LINEAR_MIPMAP_LINEAR) over a stretched quad.
uniform sampler2D u_tex;
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    vec2 lod = textureQueryLod(u_tex, v_uv * vec2(1.0, 3.0));
    frag = vec4(fract(lod.x * 0.3), fract(lod.y * 0.3), v_color.b, 1.0);
}
