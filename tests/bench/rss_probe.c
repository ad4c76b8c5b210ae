/* A tiny GL-free program for bench_exec_overhead.py: prints its peak and current resident size
 * (VmHWM, VmRSS in KiB) after every preloaded library's constructors ran. Measured from inside:
 * a parent's getrusage of a spawned child would count the parent's own pages shared at the spawn. */
#include <stdio.h>
#include <string.h>

int main(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long hwm = -1, rss = -1;
    while (f && fgets(line, sizeof line, f)) {
        if (!strncmp(line, "VmHWM:", 6))
            sscanf(line + 6, "%ld", &hwm);
        else if (!strncmp(line, "VmRSS:", 6))
            sscanf(line + 6, "%ld", &rss);
    }
    if (f)
        fclose(f);
    printf("%ld %ld\n", hwm, rss);
    return hwm < 0;
}
