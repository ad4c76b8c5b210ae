#version 300 es
// vs: vs_es300.vert
// GLSL ES 3.00: structs with array members, arrays of structs, uniform arrays, while loops with
// non-constant bounds, uint counters, ternaries on vectors.
precision highp float;
precision highp int;
struct Ring { float r[3]; vec3 col; };
uniform vec4 u_rings[3];
in mediump vec4 v_color;
in highp vec2 v_uv;
out vec4 frag;
void main()
{
    Ring rs[3];
    for (int i = 0; i < 3; i++) {
        rs[i].r[0] = 0.1 + u_rings[i].x * 0.2;
        rs[i].r[1] = rs[i].r[0] + 0.05;
        rs[i].r[2] = rs[i].r[1] + u_rings[i].y * 0.1;
        rs[i].col = u_rings[i].yzw;
    }
    float d = length(v_uv - 0.5);
    vec3 c = vec3(0.05);
    uint hits = 0u;
    int k = 0;
    while (k < 3 && hits < 2u) {
        for (int j = 0; j < 3; j++)
            if (abs(d - rs[k].r[j]) < 0.03) {
                c += rs[k].col * 0.4;
                hits++;
            }
        k++;
    }
    frag = vec4(hits > 0u ? c : v_color.rgb * 0.3, 1.0);
}
