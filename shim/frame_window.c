/* Which swaps end a frame when a program draws into several windows (xscreensaver's
 * `hypertorus --pair`: two windows, two unshared contexts, swapped in turn). Counting every swap
 * made "frame K" end at whichever window swapped next, so a capture of one frame held half of
 * each window's work. Frames are counted on one drawable, the frame window: the first drawable
 * that swaps. Swaps of other drawables are recorded (their images are kept as references) but end
 * no frame. When another drawable swaps twice with no swap of the frame window in between (the
 * frame window was closed, or the program now draws mainly elsewhere), it becomes the frame window,
 * so frames never stop being counted. With one window nothing changes: every swap ends a frame. */
#include <pthread.h>
#include "shim/shim_internal.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *frame_surface;   /* the frame window's drawable (NULL before the first swap) */
static void *other_surface;   /* the last other drawable that swapped since the frame window did */
static bool have_frame_surface;

bool glr_frame_swap_counts(void *surface)
{
    pthread_mutex_lock(&lock);
    bool counts = true;
    if (!have_frame_surface || surface == frame_surface) {
        frame_surface = surface;
        have_frame_surface = true;
        other_surface = NULL;
    } else if (other_surface == surface) {
        glr_log(GLR_LOG_INFO, "frames are now counted on drawable %p (it swapped twice while drawable %p did not)",
                surface, frame_surface);
        frame_surface = surface;
        other_surface = NULL;
    } else {
        other_surface = surface;
        counts = false;
    }
    pthread_mutex_unlock(&lock);
    return counts;
}
