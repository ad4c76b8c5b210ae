/* Colour-index images in RGBA mode (GL 2.1 section 3.6.5; Mesa's
 * _mesa_unpack_color_index_to_rgba_float, which glDrawPixels and texture uploads both use): each
 * index read from client memory (GL_BITMAP bits, or one element of an integer or float type),
 * shifted and offset (GL_INDEX_SHIFT, GL_INDEX_OFFSET), then looked up in
 * GL_PIXEL_MAP_I_TO_R/G/B/A at index & (size - 1). No scale, bias or GL_MAP_COLOR follows. */
#include <string.h>
#include "statemodel/sm_pixel_index.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

static size_t elem_size(uint32_t type)
{
    switch (type) {
    case GL_UNSIGNED_BYTE: case GL_BYTE: return 1;
    case GL_UNSIGNED_SHORT: case GL_SHORT: return 2;
    case GL_UNSIGNED_INT: case GL_INT: case GL_FLOAT: return 4;
    default: return 0;
    }
}

bool sm_color_index_rgba(const struct sm_fixed_state *ff, const struct sm_pixel_store *ps, uint32_t type,
                         const uint8_t *src, uint64_t size, int w, int x, int y, float rgba[4])
{
    int64_t row_px = ps->row_length > 0 ? ps->row_length : w;
    int64_t al = ps->alignment > 0 ? ps->alignment : 4;
    int64_t sr = ps->skip_rows > 0 ? ps->skip_rows : 0, sp = ps->skip_pixels > 0 ? ps->skip_pixels : 0;
    uint32_t idx;
    if (type == GL_BITMAP) {
        /* rows of bits padded to the alignment in bytes, skips in bits (section 3.7.4) */
        int64_t row = ((row_px + 7) / 8 + al - 1) / al * al;
        int64_t bit = sp + x;
        uint64_t byte = (uint64_t)((sr + y) * row + bit / 8);
        if (byte >= size)
            return false;
        int b = (int)(bit % 8);
        idx = (src[byte] >> (ps->lsb_first ? b : 7 - b)) & 1u;
    } else {
        size_t n = elem_size(type);
        if (!n)
            return false;
        int64_t row = row_px * (int64_t)n;
        if ((int64_t)n < al)
            row = (row + al - 1) / al * al;
        uint64_t at = (uint64_t)((sr + y) * row + (sp + x) * (int64_t)n);
        if (at + n > size)
            return false;
        uint8_t e[4];
        for (size_t i = 0; i < n; i++)
            e[i] = src[at + (ps->swap_bytes ? n - 1 - i : i)];
        switch (type) {   /* Mesa's extract_uint_indexes */
        case GL_UNSIGNED_BYTE: idx = e[0]; break;
        case GL_BYTE: idx = (uint32_t)(int32_t)(int8_t)e[0]; break;
        case GL_UNSIGNED_SHORT: { uint16_t v; memcpy(&v, e, 2); idx = v; break; }
        case GL_SHORT: { int16_t v; memcpy(&v, e, 2); idx = (uint32_t)(int32_t)v; break; }
        case GL_FLOAT: {
            float v;
            memcpy(&v, e, 4);
            idx = v > 0.0f && v < 4294967295.0f ? (uint32_t)v : 0;
            break;
        }
        default: memcpy(&idx, e, 4); break;
        }
    }
    int sh = ff->index_shift;
    if (sh > 0)
        idx = sh < 32 ? idx << sh : 0;
    else if (sh < 0)
        idx = -sh < 32 ? idx >> -sh : 0;
    idx += (uint32_t)ff->index_offset;
    for (int k = 0; k < 4; k++) {
        const struct sm_pixel_map *pm = &ff->pixel_map[GL_PIXEL_MAP_I_TO_R - GL_PIXEL_MAP_I_TO_I + k];
        /* a size of 0 only in a state that never saw the defaults: one entry */
        uint32_t n = pm->size >= 1 && pm->size <= SM_PIXEL_MAP_MAX ? pm->size : 1;
        rgba[k] = pm->v[idx & (n - 1)];
    }
    return true;
}
