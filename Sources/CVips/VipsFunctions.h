// The libvips functions sitegen calls, as libvips 8 declares them (soname libvips.so.42).
// sitegen opens libvips when a site has photos to make, rather than linking to it, so a
// sitegen without libvips still builds a site without them. Scripts/check-c-abi.sh
// compiles this list against libvips-dev's own headers: a declaration here that differs
// from libvips's fails that test.
#ifndef SITEGEN_VIPS_FUNCTIONS_H
#define SITEGEN_VIPS_FUNCTIONS_H

#include <stddef.h>

typedef struct _VipsImage VipsImage;
typedef struct _VipsArea VipsArea;
typedef struct _VipsArrayDouble VipsArrayDouble;

// X(name, return type, parameters)
#define SITEGEN_VIPS_FUNCTIONS(X) \
    X(vips_init, int, (const char *argv0)) \
    X(vips_concurrency_set, void, (int concurrency)) \
    X(vips_cache_set_max, void, (int max)) \
    X(vips_error_buffer, const char *, (void)) \
    X(vips_error_clear, void, (void)) \
    X(vips_thumbnail_buffer, int, (void *buf, size_t len, VipsImage **out, int width, ...)) \
    X(vips_thumbnail_image, int, (VipsImage *in, VipsImage **out, int width, ...)) \
    X(vips_image_new_from_memory, VipsImage *, (const void *data, size_t size, int width, int height, int bands, int format)) \
    X(vips_image_get_format, int, (const VipsImage *image)) \
    X(vips_image_write_to_memory, void *, (VipsImage *in, size_t *size)) \
    X(vips_image_get_width, int, (const VipsImage *image)) \
    X(vips_image_get_height, int, (const VipsImage *image)) \
    X(vips_image_get_bands, int, (const VipsImage *image)) \
    X(vips_image_hasalpha, int, (VipsImage *image)) \
    X(vips_colourspace, int, (VipsImage *in, VipsImage **out, int space, ...)) \
    X(vips_flatten, int, (VipsImage *in, VipsImage **out, ...)) \
    X(vips_cast, int, (VipsImage *in, VipsImage **out, int format, ...)) \
    X(vips_array_double_new, VipsArrayDouble *, (const double *array, int n)) \
    X(vips_area_unref, void, (VipsArea *area)) \
    X(vips_jpegsave_buffer, int, (VipsImage *in, void **buf, size_t *len, ...)) \
    X(vips_webpsave_buffer, int, (VipsImage *in, void **buf, size_t *len, ...)) \
    X(vips_heifsave_buffer, int, (VipsImage *in, void **buf, size_t *len, ...)) \
    X(vips_pngsave_buffer, int, (VipsImage *in, void **buf, size_t *len, ...)) \
    X(g_object_unref, void, (void *object)) \
    X(g_free, void, (void *memory))

// libvips's enumerations, as numbers (checked like the functions).
#define SITEGEN_VIPS_INTERPRETATION_SRGB 22
#define SITEGEN_VIPS_FORMAT_UCHAR 0
#define SITEGEN_VIPS_SIZE_FORCE 3
#define SITEGEN_VIPS_HEIF_COMPRESSION_AV1 4

#endif
