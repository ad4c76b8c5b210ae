/* Test helpers: recorded calls built by hand, and checks that count failures. */
#ifndef SM_TEST_H
#define SM_TEST_H

#include <stdio.h>
#include "statemodel/statemodel.h"
#include "registry/glr_gl_enums.h"

extern int sm_test_failures;

#define GLR_CHECK_FAILURES sm_test_failures
#include "tests/support/glr_check.h"
/* Applies a call built from a format: one character per parameter of the command:
 *   i int32, u uint32/enum/boolean, f float (pass a double), d double, p uint64 pointer value,
 *   b blob (pass const void *data, size_t size: the slot is the client memory it read/wrote),
 *   z plain string blob (pass const char *: its bytes with the NUL, as the recorder writes it),
 *   s string-array blob of one string (pass const char *), S of n strings (pass
 *     const char *const *, int n): the recorder's layout, u32 count + (u32 length, bytes) each,
 * then optionally 'r' followed by the return value (uint64). Returns sm_apply's result.
 * Aborts on a format that does not match the registry's parameter count. */
bool tcall(struct sm_state *s, uint32_t ctx, const char *name, const char *fmt, ...);
/* The same call without applying it (for the restore tests). */
struct glr_call tmake(uint32_t ctx, const char *name, const char *fmt, ...);

/* Builds the realistic core-profile frame used by several tests on context ctx. */
void build_core_frame(struct sm_state *s, uint32_t ctx);
/* A GL 2.1-style legacy frame (generic attributes, client-side arrays, glVertexAttrib). */
void build_legacy_frame(struct sm_state *s, uint32_t ctx);

/* A string-array blob (the recorder's layout) of n strings; valid until sm_test_result. */
struct glr_blob tstrings(const char *const *strs, int n);

/* Prints the outcome and frees the helpers' blobs; returns the exit status. */
int sm_test_result(const char *name);

#endif
