/* GLSL expressions over a snapshot, for one lane: variables (the lane's values), members and
 * swizzles, indexing, arithmetic (+ - * / %, matrix products), comparisons, && || !, ?:,
 * constructors (vec3(...), float(...), ...) and a few built-ins (length, dot, abs, min, max,
 * clamp, floor, sqrt, normalize, mix, isnan, isinf, sign, step, smoothstep, cross, reflect,
 * inversesqrt), derivatives over the lane's 2x2 quad (dFdx, dFdy, fwidth and their Fine/Coarse
 * forms, as the model's derivative instructions compute them) and, with an environment, texture
 * sampling (dbg_eval_env). Used by `evaluate`, breakpoint conditions and logpoints. */
#ifndef GLR_DAP_EVAL_H
#define GLR_DAP_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include "shadow/shadow.h"
#include "gpu_model/gm_sampler_iface.h"

/* What an expression reaches outside the snapshot: the model's texture units at the stop, for the
 * texture functions of dbg_eval_tex.h (texture, textureLod/Offset/Grad, textureProj and its forms,
 * textureGather[Offset], texelFetch[Offset], textureSize, textureQueryLod/Levels, textureSamples).
 * The request names one lane (mask); the implicit-LOD derivatives are the lane's quad's, as the
 * model computes them. sample returns 0, or -1 with a message, or DBG_EVAL_NOT_PARKED when the
 * model is not parked where the snapshot's draw can be sampled (a pass to the stop would park it). */
#define DBG_EVAL_NOT_PARKED (-2)
struct dbg_eval_env {
    int (*sample)(void *ctx, const gm_sample_request *req, gm_texel_out *out, char *err, size_t err_size);
    void *ctx;
};

/* Evaluates expr for `lane`. On success writes the value's text and GLSL type and returns 0;
 * on error returns -1 with a message in text. */
int dbg_eval(const sh_snapshot *s, int lane, const char *expr, char *text, size_t text_size,
             char *type, size_t type_size);
/* The same, with names resolved as in `function` (a frame's function, "name(sig"): its locals
 * and parameters first. NULL: the innermost frame. */
int dbg_eval_frame(const sh_snapshot *s, int lane, const char *function, const char *expr, char *text,
                   size_t text_size, char *type, size_t type_size);
/* The same with texture functions sampled through env (NULL: they answer that the model is needed). */
int dbg_eval_frame_env(const sh_snapshot *s, int lane, const char *function, const char *expr,
                       const struct dbg_eval_env *env, char *text, size_t text_size, char *type, size_t type_size);
/* Checks only the grammar of expr (no snapshot: names and types are not checked): 0 when it
 * parses, -1 with the parse error in err. Used to refuse a breakpoint condition early. */
int dbg_eval_syntax(const char *expr, char *err, size_t err_size);
/* Evaluates a condition: 1 true, 0 false, -1 error (message in err). Non-bool scalars are true
 * when nonzero. */
int dbg_eval_bool(const sh_snapshot *s, int lane, const char *expr, char *err, size_t err_size);
/* Expands a logpoint message: "{expr}" parts are evaluated, "{{" / "}}" are braces. */
void dbg_eval_message(const sh_snapshot *s, int lane, const char *msg, char *out, size_t size);
/* The same two with texture functions through env (the engine's observer: the live warp's units). */
int dbg_eval_bool_env(const sh_snapshot *s, int lane, const char *expr, const struct dbg_eval_env *env, char *err,
                      size_t err_size);
void dbg_eval_message_env(const sh_snapshot *s, int lane, const char *msg, const struct dbg_eval_env *env, char *out,
                          size_t size);

#endif
