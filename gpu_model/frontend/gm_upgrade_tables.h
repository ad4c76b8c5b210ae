/* Tables of the legacy-GLSL upgrade pass: what each compatibility built-in, legacy
 * texture function and keyword becomes in core GLSL, and the declarations that the
 * replacements need. Internal to gm_upgrade.c. */
#ifndef GM_UPGRADE_TABLES_H
#define GM_UPGRADE_TABLES_H

/* A declaration inserted after the #version line when some replacement needs it.
 * `text` uses %P for a precision qualifier ("highp " on ES, "" on desktop). */
typedef struct {
    const char *key;
    const char *text;
    const char *deps; /* space-separated keys that must be declared before */
} gm_upgrade_decl;

/* Stages of a rename: GM_UP_FS_AFTER_GS is a fragment shader of a program with a geometry
 * shader (its built-in varyings come from the geometry shader's glr_gs_* outputs; entries
 * for it are looked up before the GM_UP_FS ones). */
enum { GM_UP_ANY = 0, GM_UP_VS = 1, GM_UP_FS = 2, GM_UP_GS = 4, GM_UP_FS_AFTER_GS = 8,
       GM_UP_TES = 16, GM_UP_FS_AFTER_TES = 32 };
/* The later stages a program has (gm_glsl_upgrade_in_program's `pipe`): which stage's outputs
 * a shader's compatibility inputs are. */
enum { GM_UP_PIPE_GS = 1, GM_UP_PIPE_TES = 2, GM_UP_PIPE_TCS = 4 };

/* Identifier replacement: legacy name -> new name (+ declaration key, may be NULL). */
typedef struct {
    const char *from;
    const char *to;
    const char *decl;
    int stage; /* GM_UP_* */
} gm_upgrade_rename;

extern const gm_upgrade_decl gm_upgrade_decls[];
extern const unsigned gm_upgrade_decl_count;
extern const gm_upgrade_rename gm_upgrade_renames[];
extern const unsigned gm_upgrade_rename_count;
/* Words that became keywords (or builtin functions that replacements call) after
 * the source version: user identifiers with these names get a glr_u_ prefix. */
typedef struct {
    const char *word;
    int since;
    const char *exts; /* space-separated extensions that make it a keyword earlier (may be NULL) */
} gm_upgrade_keyword;
extern const gm_upgrade_keyword gm_upgrade_new_keywords[];
/* Members of a geometry shader's gl_in[] that are compatibility varyings:
 * `gl_in[i].gl_FrontColor` reads the input glr_FrontColor[i] (declaration key "GSIn" + name
 * without gl_). */
extern const char *const gm_upgrade_gs_in_members[];
/* #extension lines dropped because the feature is core in the target version. */
extern const char *const gm_upgrade_core_extensions[];

#endif
