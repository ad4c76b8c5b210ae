/* A tiny step counter shared by the threads of a test program, so that the order of events across
 * threads (create, make current, destroy elsewhere, release) is the same in every run. */
#ifndef STEP_SYNC_H
#define STEP_SYNC_H

#include <pthread.h>

struct step_sync {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int step;
};

#define STEP_SYNC_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 }

static inline void step_set(struct step_sync *s, int step)
{
    pthread_mutex_lock(&s->lock);
    s->step = step;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
}

static inline void step_wait(struct step_sync *s, int step)
{
    pthread_mutex_lock(&s->lock);
    while (s->step < step)
        pthread_cond_wait(&s->changed, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

#endif
