#version 400 core
// vs: vs_330.vert
// GLSL 4.00 integer functions: bitfieldExtract/Insert (signed and unsigned), bitfieldReverse,
// bitCount, findLSB, findMSB, uaddCarry, usubBorrow, umulExtended, imulExtended.
in vec2 v_uv;
out vec4 frag;
uniform uint u_u;
void main()
{
    uvec2 p = uvec2(gl_FragCoord.xy);
    uint h = p.x * 0x9E3779B9u + p.y * 0x85EBCA6Bu + u_u;
    uint e = bitfieldExtract(h, int(p.x % 20u), 9);
    int se = bitfieldExtract(int(h), 5, 7);
    uint ins = bitfieldInsert(h, p.y, 4, 6);
    uint rev = bitfieldReverse(h);
    int cnt = bitCount(h);
    int lsb = findLSB(h);
    int msb = findMSB(int(h));
    uint carry, borrow;
    uint sum = uaddCarry(h, rev, carry);
    uint dif = usubBorrow(p.x, p.y, borrow);
    uint hi, lo;
    umulExtended(h, 0x7FFFFFFFu, hi, lo);
    int ihi, ilo;
    imulExtended(int(h), -12345, ihi, ilo);
    frag = vec4(float(e) / 511.0,
                float((se + 64) ^ cnt) / 127.0,
                float((ins ^ sum ^ dif ^ hi ^ uint(ihi)) & 255u) / 255.0,
                float(lsb + msb + int(carry) + int(borrow)) / 64.0);
}
