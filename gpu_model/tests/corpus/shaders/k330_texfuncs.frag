#version 330 core
// vs: vs_330.vert
// GLSL 3.30 texture functions: texture (with bias), textureLod, textureGrad, textureOffset,
// textureLodOffset, textureProj, texelFetch(Offset), textureSize, on mipmapped linear and nearest
// textures, chosen per region.
uniform sampler2D u_tex;
uniform sampler2D u_grad;
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    int region = int(gl_FragCoord.x / 16.0) + 4 * int(gl_FragCoord.y / 16.0);
    vec4 c;
    switch (region % 8) {
    case 0: c = texture(u_tex, v_uv); break;
    case 1: c = texture(u_tex, v_uv, 1.5); break;
    case 2: c = textureLod(u_tex, v_uv, 2.3); break;
    case 3: c = textureGrad(u_tex, v_uv, vec2(0.05, 0.01), vec2(-0.02, 0.08)); break;
    case 4: c = textureOffset(u_tex, v_uv, ivec2(3, -2)); break;
    case 5: c = textureLodOffset(u_tex, v_uv, 1.0, ivec2(-4, 1)); break;
    case 6: c = textureProj(u_grad, vec3(v_uv, 1.0 + v_uv.x)); break;
    default: c = texelFetchOffset(u_tex, ivec2(gl_FragCoord.xy) % textureSize(u_tex, 1), 1, ivec2(1, 0));
    }
    frag = c + texelFetch(u_grad, ivec2(v_uv * 15.0) & 15, 0) * 0.1;
}
