#version 330 core
// vs: vs_330.vert
// GLSL 3.30: switch with fall-through, for/while/do-while, break/continue, early return,
// recursion-free helper functions with inout, const/global arrays, the ternary operator.
in vec4 v_color;
in vec2 v_uv;
layout(location = 0) out vec4 frag;
uniform int u_n;
const vec3 palette[4] = vec3[](vec3(0.9, 0.1, 0.1), vec3(0.1, 0.8, 0.2), vec3(0.2, 0.3, 0.9),
                               vec3(0.8, 0.8, 0.1));
void accumulate(inout vec3 acc, int i)
{
    acc += palette[i & 3] * 0.15;
}
vec3 pick(int k)
{
    vec3 r = vec3(0.0);
    switch (k) {
    case 0:
        r.r = 0.5;
    case 1:            // falls through from 0
        r.g = 0.5;
        break;
    case 2:
    case 3:
        r.b = 0.7;
        break;
    default:
        return palette[3];
    }
    return r;
}
void main()
{
    ivec2 cell = ivec2(clamp(v_uv, 0.0, 1.0) * 6.0);  // non-negative: % below
    vec3 acc = vec3(0.0);
    for (int i = 0; i < 8; i++) {
        if (i == cell.x)
            continue;
        if (i > cell.y + 3)
            break;
        accumulate(acc, i);
    }
    int j = 0;
    do {
        acc.g += 0.03;
        j++;
    } while (j < (cell.x + cell.y) % 5);
    int w = 0;
    while (true) {
        if (++w >= u_n)
            break;
        acc.b *= 0.9;
    }
    vec3 p = pick((cell.x + cell.y) % 5);
    frag = vec4(mix(acc, p, 0.5) + (v_color.a > 0.7 ? vec3(0.0) : vec3(0.2)), 1.0);
}
