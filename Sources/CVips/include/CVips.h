// Photos through libvips, opened at run time: decode once (turned upright, in sRGB),
// resize, encode without metadata.
#ifndef SITEGEN_CVIPS_H
#define SITEGEN_CVIPS_H

#include <stddef.h>
#include <stdint.h>

/// Opens libvips and starts it, once per process; 0 when it is ready, else nonzero with
/// `*error` saying why (a static string: do not free).
int sitegen_vips_open(const char **error);

typedef struct sitegen_picture sitegen_picture;

typedef enum {
    SITEGEN_ENCODE_JPEG = 0,
    SITEGEN_ENCODE_WEBP = 1,
    SITEGEN_ENCODE_AVIF = 2,
    SITEGEN_ENCODE_PNG = 3,
} sitegen_encoding;

/// Decodes `bytes` to `width` × `height` pixels (the caller keeps its proportions and never
/// makes it larger), upright and in sRGB, held in memory. NULL on failure, with `*error`
/// to be freed with sitegen_error_free().
sitegen_picture *sitegen_picture_decode(const void *bytes, size_t length, int width, int height, char **error);
/// A copy of `picture` `width` × `height` pixels, made from it.
sitegen_picture *sitegen_picture_resized(sitegen_picture *picture, int width, int height, char **error);
int sitegen_picture_width(const sitegen_picture *picture);
int sitegen_picture_height(const sitegen_picture *picture);
/// Encodes `picture`, which carries no metadata; a JPEG flattens transparency onto white.
/// 0 on success, with `*bytes` to be freed with sitegen_buffer_free().
int sitegen_picture_encode(sitegen_picture *picture, sitegen_encoding encoding, int quality, void **bytes, size_t *length, char **error);
/// The mean colour of `picture`, as 0xRRGGBB; -1 when it cannot be worked out.
int32_t sitegen_picture_mean_colour(sitegen_picture *picture);
void sitegen_picture_free(sitegen_picture *picture);
void sitegen_buffer_free(void *bytes);
/// Frees an `*error` of the functions above.
void sitegen_error_free(char *error);

#endif
