/* Share groups (textures shared, VAOs per context) and the CLI query output. */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "sm_test.h"

static void test_share_groups(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 3, 3));
    CHECK(sm_context_create(s, 2, 1, SM_API_GL_CORE, 3, 3));
    CHECK(sm_context_create(s, 3, 0, SM_API_GLES, 3, 0));
    CHECK(!sm_context_create(s, 2, 0, SM_API_GL_CORE, 3, 3));   /* id taken */
    CHECK(!sm_context_create(s, 4, 99, SM_API_GL_CORE, 3, 3));  /* no such context */
    uint32_t tex = 5, vao = 1;
    tcall(s, 1, "glGenTextures", "ib", 1, &tex, sizeof tex);
    tcall(s, 1, "glBindTexture", "uu", GL_TEXTURE_2D, 5);
    tcall(s, 1, "glGenVertexArrays", "ib", 1, &vao, sizeof vao);
    tcall(s, 1, "glBindVertexArray", "u", 1);
    tcall(s, 1, "glEnableVertexAttribArray", "u", 2);
    const struct sm_context *c1 = sm_context_get(s, 1), *c2 = sm_context_get(s, 2),
                            *c3 = sm_context_get(s, 3);
    CHECK(sm_context_share_id(c1) == sm_context_share_id(c2));
    CHECK(sm_context_share_id(c1) != sm_context_share_id(c3));
    CHECK(sm_get_texture(c2, 5) != NULL && sm_get_texture(c3, 5) == NULL);
    CHECK(sm_get_vao(c1, 1) != NULL && sm_get_vao(c2, 1) == NULL);
    CHECK(sm_object_count(c2, SM_OBJ_TEXTURE) == 1 && sm_object_count(c2, SM_OBJ_VAO) == 0);
    /* The same VAO name in another context is another object. */
    tcall(s, 2, "glGenVertexArrays", "ib", 1, &vao, sizeof vao);
    tcall(s, 2, "glBindVertexArray", "u", 1);
    CHECK(sm_get_vao(c2, 1) && !sm_get_vao(c2, 1)->attrib[2].enabled);
    CHECK(sm_get_vao(c1, 1)->attrib[2].enabled);
    /* Texture parameters set in one context are seen by the other. */
    tcall(s, 2, "glTextureParameteri", "uui", 5, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    CHECK(sm_get_texture(c1, 5)->params.mag_filter == GL_NEAREST);
    /* Deleting in one context deletes for the group; the other context's binding stays dangling
     * as in GL (the name is only unbound in the deleting context). */
    tcall(s, 2, "glDeleteTextures", "ib", 1, &tex, sizeof tex);
    CHECK(sm_get_texture(c1, 5) == NULL);
    CHECK(sm_context_state(c1)->unit[0].bound[SM_TT_2D] == 5);
    /* A call on an undeclared context creates it. */
    tcall(s, 9, "glClearColor", "ffff", 1.0, 0.0, 0.0, 1.0);
    CHECK(sm_context_count(s) == 4 && sm_context_get(s, 9) != NULL);
    sm_context_destroy(s, 2);
    CHECK(sm_context_count(s) == 3 && sm_get_vao(c1, 1) != NULL);
    size_t n;
    uint8_t *bin = sm_serialize(s, &n);
    struct sm_state *b = sm_deserialize(bin, n, NULL, 0);
    CHECK(b && sm_state_equal(s, b));
    sm_state_free(b);
    free(bin);
    sm_state_free(s);
}

static void test_query(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 3, 3));
    build_core_frame(s, 1);
    char *json = sm_query_json(s, 0);
    CHECK(json != NULL);
    cJSON *o = json ? cJSON_Parse(json) : NULL;
    CHECK(o != NULL);
    cJSON *prog = cJSON_GetObjectItem(o, "program");
    CHECK(prog && cJSON_GetObjectItem(prog, "name")->valuedouble == 5);
    cJSON *unis = cJSON_GetObjectItem(prog, "uniforms");
    CHECK(cJSON_GetArraySize(unis) == 4);
    cJSON *u4 = cJSON_GetArrayItem(unis, 3);
    CHECK(u4 && !strcmp(cJSON_GetObjectItem(u4, "type")->valuestring, "mat2"));
    cJSON *vao = cJSON_GetObjectItem(o, "vertex_array");
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(vao, "enabled_attributes")) == 2);
    cJSON *tex = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "textures"), 0);
    CHECK(tex && cJSON_GetObjectItem(tex, "unit")->valuedouble == 3);
    CHECK(tex && !strcmp(cJSON_GetObjectItem(tex, "wrap_s")->valuestring, "GL_CLAMP_TO_EDGE"));
    cJSON *fb = cJSON_GetObjectItem(o, "framebuffer");
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(fb, "attachments")) == 3);
    cJSON *blend = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "blend"),
                                                          "per_draw_buffer"), 0);
    CHECK(blend && !strcmp(cJSON_GetObjectItem(blend, "src_rgb")->valuestring, "GL_SRC_ALPHA"));
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "depth"), "test")));
    cJSON_Delete(o);
    free(json);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(sm_query_text(s, 1, f));
    fclose(f);
    CHECK(text && strstr(text, "viewport: [0, 0, 64, 32]") && strstr(text, "GL_LEQUAL"));
    free(text);
    CHECK(sm_query_json(s, 42) == NULL);
    /* The capturer's setters for contents read back from the driver. */
    static const uint8_t bytes[48] = { 9 };
    CHECK(sm_set_buffer_data(s, 1, 1, bytes, sizeof bytes));
    CHECK(!sm_set_buffer_data(s, 1, 1, bytes, 47));          /* size must match */
    CHECK(sm_get_buffer(sm_context_get(s, 1), 1)->data[0] == 9);
    CHECK(sm_set_texture_image_data(s, 1, 7, 0, 1, GL_RGBA, GL_UNSIGNED_BYTE, 4, bytes, 16));
    CHECK(!sm_get_texture(sm_context_get(s, 1), 7)->image[0][1].generated);
    CHECK(!sm_set_texture_image_data(s, 1, 7, 0, 5, GL_RGBA, GL_UNSIGNED_BYTE, 4, bytes, 16));
    sm_state_free(s);
}

int main(void)
{
    test_share_groups();
    test_query();
    return sm_test_result("test_sm_share");
}
