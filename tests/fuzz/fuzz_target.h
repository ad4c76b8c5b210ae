/* The contract between a fuzz target and its two drivers: libFuzzer (tests/fuzz/run_fuzz.sh builds
 * every target with clang -fsanitize=fuzzer) and fuzz_replay_main.c (the default build: runs the
 * files of a seed corpus through the target once, as the suite's regression test, like SQLite's
 * fuzzcheck). A target defines LLVMFuzzerTestOneInput and may define LLVMFuzzerInitialize. */
#ifndef GLR_FUZZ_TARGET_H
#define GLR_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes as a file the project's path-based loaders can open: an anonymous memory file
 * (memfd) named by its /proc/self/fd path. Returns the fd (close it after use) and the path in
 * path[path_size]; -1 when memory or fds run out. */
int fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t path_size);

/* The input of a file-image target (one mode byte, then a .glcap image) as such a file: mode bit 0
 * recomputes the image's stored checksums first (glcap_fix_checksums.h), so mutations reach what
 * the checksums guard. The fd (close it after use), or -1. */
int fuzz_capture_image(const uint8_t *data, size_t size, char *path, size_t path_size);

#endif
