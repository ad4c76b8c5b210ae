#version 430 core
// vs: vs_330.vert
// GLSL 4.30: arrays of arrays, .length() on them, explicit uniform locations, std430-style
// constant data in a uniform array, gl_FragCoord.z/w.
layout(location = 3) uniform vec4 u_k[3];
in vec4 v_color;
in vec2 v_uv;
layout(location = 0) out vec4 frag;
void main()
{
    float grid[3][4];
    for (int i = 0; i < grid.length(); i++)
        for (int j = 0; j < grid[i].length(); j++)
            grid[i][j] = u_k[i][j] * float(i + j + 1);
    ivec2 c = ivec2(v_uv * vec2(3.0, 4.0));
    c = clamp(c, ivec2(0), ivec2(2, 3));
    float v = grid[c.x][c.y];
    frag = vec4(fract(v), v_color.g * gl_FragCoord.w, gl_FragCoord.z + 0.3, 1.0);
}
