/* glreplay/eventImages: the driver's image after events of the capture, scaled down (dap_event_image.c). */
#ifndef DAP_EVENT_IMAGE_H
#define DAP_EVENT_IMAGE_H

#include <cjson/cJSON.h>

struct dap_session;
void dap_event_images_request(struct dap_session *s, const cJSON *req, const cJSON *args);

#endif
