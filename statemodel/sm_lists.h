/* Display lists as recorded calls (sm_lists.c): the lists a snapshot keeps (stream-encoded, as
 * RESOURCE_BLOB kind 4) and those compiled inside a captured stream (glNewList .. glEndList), and
 * what glCallList / glCallLists (every type of the names array, glListBase, GL's nesting limit of
 * 64) execute. Shared by the GPU model, which feeds the executed calls through its runner, and
 * `glreplay info`, which counts the draws inside the called lists. Pure decoding, no GL. */
#ifndef SM_LISTS_H
#define SM_LISTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "registry/glr_call.h"

#define SM_MAX_LIST_NESTING 64   /* GL_MAX_LIST_NESTING in every GL implementation */

struct sm_lists;

struct sm_lists *sm_lists_new(void);
void sm_lists_free(struct sm_lists *L);

/* A list the snapshot kept for share group `share`: 1 kept, 0 corrupt (not kept), -1 out of
 * memory. */
int sm_lists_keep(struct sm_lists *L, uint32_t share, uint32_t name, const void *data, size_t size);

/* Sees a record of the stream first (share: its context's share group). glNewList opens a list,
 * glEndList stores it (replacing one of that name); records in between that GL compiles into a
 * list (glr_cmd_compiled_into_list, and CLIENT_ARRAY data of draws) are copied into it. Returns
 * true when the record must not be executed: glNewList / glEndList, and compiled records of a
 * GL_COMPILE list. Records fed while a list executes (sm_lists_depth > 0) are never compiled. */
bool sm_lists_compile(struct sm_lists *L, uint32_t share, const struct glr_call *c);

/* The mode of the list being compiled on context ctx_id (GL_COMPILE, GL_COMPILE_AND_EXECUTE; 0
 * when none), and the calls compiled into it so far (a pointer valid until the next
 * sm_lists_compile). */
uint32_t sm_lists_compiling(const struct sm_lists *L, uint32_t ctx_id);
size_t sm_lists_compiled_count(const struct sm_lists *L);
const struct glr_call *sm_lists_compiled_call(const struct sm_lists *L, size_t i);

/* Called for each call of an executed list (ctx_id set to the caller's context). A nested
 * glCallList reaches this callback like any call: pass it back to sm_lists_call. */
typedef void (*sm_list_exec_fn)(void *user, const struct glr_call *c);
/* Called for a list name that is not known (GL ignores it; a capture may have dropped it). */
typedef void (*sm_list_missing_fn)(void *user, uint32_t name);

/* glCallList, glCallLists, glListBase, glDeleteLists: applies or executes it and returns true;
 * false for any other command. A glCallLists whose names array was not recorded or is short, and
 * a call whose lists run more than 2^24 calls (only a corrupt capture: GL would hang), return
 * true with *bad set (the walk stops there). */
bool sm_lists_call(struct sm_lists *L, uint32_t share, const struct glr_call *c, sm_list_exec_fn exec,
                   sm_list_missing_fn missing, void *user, bool *bad);

/* How deep in list execution the walk is (0: the stream's own records). */
int sm_lists_depth(const struct sm_lists *L);

/* sm_apply for a stream with display lists: calls compiled into a GL_COMPILE list change nothing
 * until the list is called; glCallList(s) applies the lists' calls (nested ones too). L may be
 * NULL (plain sm_apply). Returns sm_apply's result for the call itself (true for list commands). */
struct sm_state;
bool sm_apply_listed(struct sm_state *s, struct sm_lists *L, const struct glr_call *c);

#endif
