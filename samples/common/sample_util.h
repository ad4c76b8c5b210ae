/* Small helpers shared by the samples that need no GL. */
#ifndef SAMPLES_SAMPLE_UTIL_H
#define SAMPLES_SAMPLE_UTIL_H

/* Prints "<fmt...>" and a newline to stderr and exits with status 1. */
__attribute__((noreturn, format(printf, 1, 2))) void sample_fatal(const char *fmt, ...);

/* Creates directory `path` and its missing parents (mode 0755). Returns 0 or -1 with errno. */
int sample_mkdir_p(const char *path);

#endif
