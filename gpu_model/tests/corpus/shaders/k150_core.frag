#version 150 core
// vs: vs_330.vert
// GLSL 1.50 core: user output, structs, arrays of structs, nested functions.
struct Light { vec3 dir; vec3 color; };
uniform vec3 u_dirs[3];
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
vec3 shade(Light l, vec3 n)
{
    return l.color * max(dot(n, normalize(l.dir)), 0.0);
}
void main()
{
    vec3 n = normalize(vec3(v_uv - 0.5, 1.0));
    Light ls[3];
    for (int i = 0; i < 3; i++)
        ls[i] = Light(u_dirs[i] - vec3(0.6), vec3(0.4 + 0.2 * float(i), 0.5, 0.6 - 0.2 * float(i)));
    vec3 c = vec3(0.0);
    for (int i = 0; i < ls.length(); i++)
        c += shade(ls[i], n);
    frag = vec4(c * v_color.rgb, v_color.a);
}
