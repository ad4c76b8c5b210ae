/* The size rules gl_annotations.txt names (glr_compsize.c, glr_readback.c), called by the
 * generated glr_param_size and glr_readback_size with the indices of the parameters they read in
 * the packed arguments a (as in struct glr_call), resolved from the parameters' names at build
 * time (gen_registry.py). An index of -1 is a parameter the command does not have. Each returns
 * bytes, or -1 when it cannot size. Internal to registry/. */
#ifndef GLR_SIZE_RULES_H
#define GLR_SIZE_RULES_H

#include <stdint.h>
#include "registry/glr_readback.h"
#include "registry/glr_sizes.h"

int64_t glr_cs_element(const uint64_t *a, int format, int type);
int64_t glr_cs_image_size(const uint64_t *a, int image_size);
int64_t glr_cs_unpack(const struct glr_size_env *e, const uint64_t *a, int format, int type, int width, int height,
                      int depth);
int64_t glr_cs_indices(const uint64_t *a, int count, int type);
int64_t glr_cs_tex_parameter(const uint64_t *a, int pname);
int64_t glr_cs_clear_buffer(const uint64_t *a, int buffer);
int64_t glr_cs_call_lists(const uint64_t *a, int n, int type);
int64_t glr_cs_counted(const uint64_t *a, int count, int64_t elem);
int64_t glr_cs_size(const uint64_t *a, int size);
int64_t glr_cs_bitmap(const struct glr_size_env *e, const uint64_t *a, int width, int height);
int64_t glr_cs_array(const uint64_t *a, int count, int64_t elem);
int64_t glr_cs_patch_parameter(const uint64_t *a, int pname);
int64_t glr_cs_multi_indirect(const uint64_t *a, int drawcount, int stride, int64_t elem);
int64_t glr_cs_map1(const uint64_t *a, int target, int stride, int order, int64_t elem);
int64_t glr_cs_map2(const uint64_t *a, int target, int ustride, int uorder, int vstride, int vorder, int64_t elem);
int64_t glr_cs_ff_vector(const uint64_t *a, int pname, int64_t elem);

/* Read-backs (glr_readback.c): what the call writes, -1 past buf_size (when buf_size >= 0) or when
 * there is no size. */
int64_t glr_rb_read_pixels(const struct glr_readback_env *e, const uint64_t *a, int width, int height, int format,
                           int type, int buf_size);
int64_t glr_rb_tex_image(const struct glr_readback_env *e, const uint64_t *a, int target, int level, int format,
                         int type, int buf_size);
int64_t glr_rb_buffer_range(const uint64_t *a, int size);

#endif
