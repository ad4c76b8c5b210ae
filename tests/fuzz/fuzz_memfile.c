/* fuzz_memfile: a fuzz input as a file without touching the disk (fuzz_target.h). */
#include "fuzz_target.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t path_size)
{
    int fd = memfd_create("glreplay-fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)n;
    }
    snprintf(path, path_size, "/proc/self/fd/%d", fd);
    return fd;
}
