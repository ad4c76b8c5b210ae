/* Sizes of what read-backs write (glr_readback.h): one rule for the recorder (what it hashes) and
 * the replayer (what it reads again, and the memory it reads into). Which commands are read-backs
 * and which rule sizes each is written in gl_annotations.txt; the generated glr_readback_size
 * calls these rules with the parameters' indices. */
#include "registry/glr_size_rules.h"
#include "glr_gl_enums.h"   /* generated from gl.xml (gen_enums.py) */

/* size, or -1 when there is none or it is past the bufSize argument at buf_size (GL refuses). */
static int64_t within(int64_t size, const uint64_t *a, int buf_size)
{
    if (size < 0 || (buf_size >= 0 && (int32_t)a[buf_size] >= 0 && size > (int32_t)a[buf_size]))
        return -1;
    return size;
}

int64_t glr_rb_read_pixels(const struct glr_readback_env *e, const uint64_t *a, int width, int height, int format,
                           int type, int buf_size)
{
    return within(glr_pack_size(e->env, (uint32_t)a[format], (uint32_t)a[type], (int32_t)a[width], (int32_t)a[height],
                                1, 2),
                  a, buf_size);
}

int64_t glr_rb_tex_image(const struct glr_readback_env *e, const uint64_t *a, int target, int level, int format,
                         int type, int buf_size)
{
    int64_t d[3];
    if (!e->tex_dims || !e->tex_dims(e->user, (uint32_t)a[target], (int32_t)a[level], d))
        return -1;
    uint32_t t = (uint32_t)a[target];
    bool deep = t == GL_TEXTURE_3D || t == GL_TEXTURE_2D_ARRAY || t == GL_TEXTURE_CUBE_MAP_ARRAY;   /* a depth */
    return within(glr_pack_size(e->env, (uint32_t)a[format], (uint32_t)a[type], d[0], d[1] > 0 ? d[1] : 1,
                                deep && d[2] > 0 ? d[2] : 1, deep ? 3 : 2),
                  a, buf_size);
}

int64_t glr_rb_buffer_range(const uint64_t *a, int size)
{
    return within((int64_t)a[size], a, -1);
}
