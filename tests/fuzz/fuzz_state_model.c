/* Fuzz target: the state model's two serialized forms, as a capture's INITIAL_STATE section and
 * as JSON. Input: one mode byte, then the bytes; mode bit 0 reads them as JSON (sm_from_json),
 * else as the binary form (sm_deserialize). A state that loads is serialized again both ways and
 * must load again (a round trip that fails is a finding: abort). */
#include "fuzz_target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "statemodel/statemodel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char err[512];
    struct sm_state *s;
    if (data[0] & 1) {
        char *text = malloc(size);
        if (!text)
            return 0;
        memcpy(text, data + 1, size - 1);
        text[size - 1] = 0;
        s = sm_from_json(text, err, sizeof err);
        free(text);
    } else {
        s = sm_deserialize(data + 1, size - 1, err, sizeof err);
    }
    if (!s)
        return 0;
    size_t n = 0;
    uint8_t *bin = sm_serialize(s, &n);
    char *json = sm_to_json(s);
    if (bin) {
        struct sm_state *again = sm_deserialize(bin, n, err, sizeof err);
        if (!again) {
            fprintf(stderr, "fuzz_state_model: the serialized state does not load again: %s\n", err);
            abort();
        }
        sm_state_free(again);
    }
    if (json) {
        struct sm_state *again = sm_from_json(json, err, sizeof err);
        if (!again) {
            fprintf(stderr, "fuzz_state_model: the state's JSON does not load again: %s\n", err);
            abort();
        }
        sm_state_free(again);
    }
    free(bin);
    free(json);
    sm_state_free(s);
    return 0;
}
