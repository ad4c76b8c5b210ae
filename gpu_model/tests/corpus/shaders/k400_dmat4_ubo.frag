#version 400 core
// vs: vs_330.vert
// Doubles in a std140 uniform block: a double, a dvec3 (aligned to 32), a dmat4 and a double
// array (stride 16), each component two words in the model. The corpus fills blocks with
// float bit patterns, which read as doubles are tiny (2^-61..2^-8): frexp brings them to
// [0.5, 1) exactly, then a dmat4 transform of a point from the varyings.
layout(std140) uniform DBlock {
    double scale;
    dvec3 offs;
    dmat4 xf;
    double arr[3];
} db;
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    ivec4 e0, e1, e2, e3;
    dmat4 m = dmat4(frexp(db.xf[0], e0), frexp(db.xf[1], e1), frexp(db.xf[2], e2),
                    frexp(db.xf[3], e3));
    ivec3 eo;
    dvec3 o = frexp(db.offs, eo);
    int es, ea;
    double s = frexp(db.scale, es);
    int i = clamp(int(v_uv.y * 3.0), 0, 2);
    double a = frexp(db.arr[i], ea);
    dvec4 p = m * dvec4(dvec2(v_uv) * 4.0lf - 2.0lf, s, 1.0lf) + dvec4(o, a);
    dvec4 q = transpose(m) * p * 2.5lf + dvec4(dvec3(e0.xyz + e1.xyz) * 0.0625lf, 0.0lf);
    frag = vec4(fract(q.xyz + double(ea - es) * 0.01lf), float(abs(determinant(m)) * 4.0lf));
}
