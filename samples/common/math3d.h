/* Minimal 4x4 matrix math for the samples (column-major, as glUniformMatrix4fv expects with
 * transpose = GL_FALSE). Only what the samples need: no general inverse. */
#ifndef SAMPLES_MATH3D_H
#define SAMPLES_MATH3D_H

typedef struct Vec3 {
    float x, y, z;
} Vec3;

typedef struct Mat4 {
    float m[16]; /* m[col * 4 + row] */
} Mat4;

#define MATH3D_PI 3.14159265358979323846f

Vec3 vec3(float x, float y, float z);
Vec3 vec3_sub(Vec3 a, Vec3 b);
Vec3 vec3_cross(Vec3 a, Vec3 b);
Vec3 vec3_normalize(Vec3 a);
float vec3_dot(Vec3 a, Vec3 b);

Mat4 mat4_identity(void);
Mat4 mat4_mul(Mat4 a, Mat4 b); /* a * b: b is applied first */
Mat4 mat4_translate(float x, float y, float z);
Mat4 mat4_scale(float x, float y, float z);
Mat4 mat4_rotate(float radians, float ax, float ay, float az); /* axis need not be unit */
Mat4 mat4_perspective(float fovy_radians, float aspect, float znear, float zfar);
Mat4 mat4_look_at(Vec3 eye, Vec3 center, Vec3 up);

#endif
