#version 300 es
// vs: vs_es300.vert
// GLSL ES 3.00 (GLES 3.0 context): out variable, integer ops, switch, texture/textureLod/
// texelFetch/textureSize, uint arithmetic.
precision highp float;
precision highp int;
uniform highp sampler2D u_tex;
in mediump vec4 v_color;
in highp vec2 v_uv;
out vec4 frag;
void main()
{
    ivec2 sz = textureSize(u_tex, 0);
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint h = uint(p.x * 31 + p.y * 17) * 747796405u;
    h ^= h >> 11;
    // Implicit-LOD sampling before the switch: derivatives need uniform control flow.
    vec4 t0 = texture(u_tex, v_uv);
    vec4 c;
    switch (int(h & 3u)) {
    case 0: c = t0; break;
    case 1: c = textureLod(u_tex, v_uv, 1.7); break;
    case 2: c = texelFetch(u_tex, p % sz, 0); break;
    default: c = vec4(v_color.rgb, 1.0);
    }
    frag = vec4(c.rgb, 1.0);
}
