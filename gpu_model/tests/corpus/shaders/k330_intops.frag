#version 330 core
// vs: vs_330.vert
// GLSL 3.30: signed/unsigned arithmetic, division and modulo (positive operands), shifts, bit ops,
// int<->float conversions, floatBitsToInt/uintBitsToFloat, integer vectors and comparisons.
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
uniform ivec4 u_iv;
uniform uvec2 u_uv;
void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int a = p.x * 37 - p.y * 11 + u_iv.x;
    int b = (a >> 2) ^ (p.y << 3) | u_iv.w;
    uint c = uint(abs(a)) * 2246822519u + u_uv.x;
    c ^= c >> 13;
    c *= 3266489917u;
    c ^= c >> 16;
    uint d = (c / (u_uv.y + 1u)) % 251u;
    int e = floatBitsToInt(v_uv.x) >> 15;
    float f = uintBitsToFloat((c & 0x007fffffu) | 0x3f800000u) - 1.0;
    bvec2 lt = lessThan(p, ivec2(32, 20));
    ivec3 m = abs(ivec3(b, a, e)) % ivec3(7, 13, 17);  // % of negatives is undefined
    frag = vec4(float(d) / 250.0, f, float(abs(m.x) + abs(m.y) + abs(m.z)) / 36.0,
                any(lt) ? 1.0 : (all(lt) ? 0.5 : 0.25));
}
