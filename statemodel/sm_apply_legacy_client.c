/* Legacy client-state commands: glInterleavedArrays (one call that sets the vertex, normal, colour
 * and texture coordinate arrays, of the client active unit, of the bound vertex array from one of
 * the fourteen layouts of GL 2.1 table 2.5, enables the arrays the layout has and disables the
 * others, edge flag, index, secondary colour and fog coordinate included; the shim records the
 * draws' client data per array, so the model reads them with these layouts) and
 * glPushClientAttrib / glPopClientAttrib (GL 2.1 section 6.1.14). */
#include <string.h>
#include "statemodel/sm_apply.h"

struct layout {
    uint32_t format;
    uint8_t tex, color, normal, vertex;   /* component counts (0: none) */
    bool color_ubyte;
    uint8_t pc, pn, pv, stride;           /* byte offsets and stride */
};

/* f = 4 bytes (a float), c = 4 bytes (4 unsigned bytes rounded up to a float multiple). */
static const struct layout layouts[] = {
    { GL_V2F, 0, 0, 0, 2, false, 0, 0, 0, 8 },
    { GL_V3F, 0, 0, 0, 3, false, 0, 0, 0, 12 },
    { GL_C4UB_V2F, 0, 4, 0, 2, true, 0, 0, 4, 12 },
    { GL_C4UB_V3F, 0, 4, 0, 3, true, 0, 0, 4, 16 },
    { GL_C3F_V3F, 0, 3, 0, 3, false, 0, 0, 12, 24 },
    { GL_N3F_V3F, 0, 0, 3, 3, false, 0, 0, 12, 24 },
    { GL_C4F_N3F_V3F, 0, 4, 3, 3, false, 0, 16, 28, 40 },
    { GL_T2F_V3F, 2, 0, 0, 3, false, 0, 0, 8, 20 },
    { GL_T4F_V4F, 4, 0, 0, 4, false, 0, 0, 16, 32 },
    { GL_T2F_C4UB_V3F, 2, 4, 0, 3, true, 8, 0, 12, 24 },
    { GL_T2F_C3F_V3F, 2, 3, 0, 3, false, 8, 0, 20, 32 },
    { GL_T2F_N3F_V3F, 2, 0, 3, 3, false, 0, 8, 20, 32 },
    { GL_T2F_C4F_N3F_V3F, 2, 4, 3, 3, false, 8, 24, 36, 48 },
    { GL_T4F_C4F_N3F_V4F, 4, 4, 3, 4, false, 16, 32, 44, 60 },
};

static void set(struct sm_ap *a, struct sm_vao *v, int which, int32_t size, uint32_t type,
                int32_t stride, uint64_t pointer)
{
    struct sm_legacy_array *la = &v->legacy[which];
    la->enabled = size > 0;
    if (size <= 0)
        return;
    la->size = size;
    la->type = type;
    la->stride = stride;
    la->pointer = pointer;
    la->buffer = a->c->st.buffer[SM_BT_ARRAY];
}

static void h_interleaved_arrays(struct sm_ap *a)
{
    uint32_t format = ap_u(a, 0);
    int32_t stride = ap_i(a, 1);
    uint64_t ptr = ap_u64(a, 2);
    const struct layout *l = NULL;
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if (layouts[i].format == format)
            l = &layouts[i];
    if (!l || stride < 0) {
        ap_error(a, !l ? "interleaved array format not known" : "negative stride");
        return;
    }
    struct sm_vao *v = ap_vao(a, a->c->st.vao);
    if (!v)
        return;
    int32_t s = stride ? stride : l->stride;
    uint32_t unit = a->c->st.client_active_texture;
    v->legacy[SM_LA_EDGE_FLAG].enabled = false;
    v->legacy[SM_LA_INDEX].enabled = false;
    v->legacy[SM_LA_SECONDARY_COLOR].enabled = false;
    v->legacy[SM_LA_FOG_COORD].enabled = false;
    if (unit < SM_MAX_LEGACY_TEXCOORD)
        set(a, v, SM_LA_TEXCOORD0 + (int)unit, l->tex, GL_FLOAT, s, ptr);
    set(a, v, SM_LA_COLOR, l->color, l->color_ubyte ? GL_UNSIGNED_BYTE : GL_FLOAT, s, ptr + l->pc);
    set(a, v, SM_LA_NORMAL, l->normal, GL_FLOAT, s, ptr + l->pn);
    set(a, v, SM_LA_VERTEX, l->vertex, GL_FLOAT, s, ptr + l->pv);
}

static void h_push_client_attrib(struct sm_ap *a)
{
    struct sm_context_state *st = &a->c->st;
    if (st->client_stack_depth >= SM_CLIENT_STACK_DEPTH) {
        ap_error(a, "client attribute stack overflow");
        return;
    }
    struct sm_client_attrib *e = &st->client_stack[st->client_stack_depth++];
    const struct sm_vao *v = ap_vao(a, st->vao);
    e->mask = ap_u(a, 0);
    if (v)
        memcpy(e->legacy, v->legacy, sizeof e->legacy);
    e->client_active_texture = st->client_active_texture;
    e->array_buffer = st->buffer[SM_BT_ARRAY];
    e->pack = st->pack;
    e->unpack = st->unpack;
}

static void h_pop_client_attrib(struct sm_ap *a)
{
    struct sm_context_state *st = &a->c->st;
    if (!st->client_stack_depth) {
        ap_error(a, "client attribute stack underflow");
        return;
    }
    const struct sm_client_attrib *e = &st->client_stack[--st->client_stack_depth];
    if (e->mask & GL_CLIENT_VERTEX_ARRAY_BIT) {
        struct sm_vao *v = ap_vao(a, st->vao);
        if (v)
            memcpy(v->legacy, e->legacy, sizeof v->legacy);
        st->client_active_texture = e->client_active_texture;
        st->buffer[SM_BT_ARRAY] = e->array_buffer;
    }
    if (e->mask & GL_CLIENT_PIXEL_STORE_BIT) {
        st->pack = e->pack;
        st->unpack = e->unpack;
    }
}

void sm_register_legacy_client(sm_apply_fn *t)
{
    t[GLR_CMD_glInterleavedArrays] = h_interleaved_arrays;
    t[GLR_CMD_glPushClientAttrib] = h_push_client_attrib;
    t[GLR_CMD_glPopClientAttrib] = h_pop_client_attrib;
}
