// Loaded before liborc by Scripts/check-vips-threads.sh: counts the liborc programs libvips
// compiles and frees, and the calls that began while another was still running. Each call
// lasts a millisecond longer, so that two threads not kept apart meet in nearly every
// build. Writes "compiled N freed N overlapped N" to $SITEGEN_SHIM_REPORT at the end.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_int running, compiled, freed, overlapped;

static void enter(atomic_int *count) {
    atomic_fetch_add(count, 1);
    if (atomic_fetch_add(&running, 1) > 0) atomic_fetch_add(&overlapped, 1);
    usleep(1000);
}

static void leave(void) { atomic_fetch_sub(&running, 1); }

static void report(void) {
    const char *path = getenv("SITEGEN_SHIM_REPORT");
    FILE *file = path ? fopen(path, "w") : NULL;
    if (!file) return;
    fprintf(file, "compiled %d freed %d overlapped %d\n", atomic_load(&compiled), atomic_load(&freed), atomic_load(&overlapped));
    fclose(file);
}

__attribute__((constructor)) static void start(void) { atexit(report); }

int orc_program_compile(void *program) {
    static int (*real)(void *);
    if (!real) real = (int (*)(void *))dlsym(RTLD_NEXT, "orc_program_compile");
    enter(&compiled);
    int result = real(program);
    leave();
    return result;
}

void orc_program_free(void *program) {
    static void (*real)(void *);
    if (!real) real = (void (*)(void *))dlsym(RTLD_NEXT, "orc_program_free");
    enter(&freed);
    real(program);
    leave();
}
