#include "CQRCode.h"
#include "QRFunctions.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define DECLARE(name, result, parameters) static result (*sg_##name) parameters;
SITEGEN_QR_FUNCTIONS(DECLARE)
#undef DECLARE

static pthread_once_t opened = PTHREAD_ONCE_INIT;
static const char *open_error;

static void open_once(void) {
    // SITEGEN_LIBQRENCODE names another libqrencode (one built by hand, in another folder).
    const char *named = getenv("SITEGEN_LIBQRENCODE");
    void *library = dlopen(named && *named ? named : "libqrencode.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        open_error = named && *named ? "the libqrencode SITEGEN_LIBQRENCODE names could not be opened"
                                     : "libqrencode is not installed";
        return;
    }
#define RESOLVE(name, result, parameters) \
    sg_##name = (result (*) parameters)dlsym(library, #name); \
    if (!sg_##name) { open_error = "libqrencode lacks " #name ": sitegen needs libqrencode 4.0 or later"; return; }
    SITEGEN_QR_FUNCTIONS(RESOLVE)
#undef RESOLVE
}

int sitegen_qr_open(const char **error) {
    pthread_once(&opened, open_once);
    if (open_error) {
        *error = open_error;
        return 1;
    }
    return 0;
}

unsigned char *sitegen_qr_encode(const char *text, int level, int *width) {
    const char *error;
    if (sitegen_qr_open(&error) != 0 || level < 0 || level > 3) return NULL;
    sitegen_qrcode *code = sg_QRcode_encodeString8bit(text, 0, (sitegen_qr_level)level);
    if (!code) return NULL;
    size_t count = (size_t)code->width * (size_t)code->width;
    unsigned char *modules = malloc(count);
    if (modules) {
        for (size_t index = 0; index < count; index++) modules[index] = code->data[index] & 1;
        *width = code->width;
    }
    sg_QRcode_free(code);
    return modules;
}

void sitegen_qr_free(unsigned char *modules) {
    free(modules);
}
