#include "CVips.h"
#include "VipsFunctions.h"

#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#define DECLARE(name, result, parameters) static result (*sg_##name) parameters;
SITEGEN_VIPS_FUNCTIONS(DECLARE)
#undef DECLARE

struct sitegen_picture {
    VipsImage *image;
    /// Its pixels, which `image` reads and does not own.
    void *pixels;
};

static pthread_once_t opened = PTHREAD_ONCE_INIT;
static const char *open_error;

/// Held while a resize is set up and while one is freed. libvips up to 8.14 compiles a
/// liborc program when it sets a resize up and frees it with the resize; liborc (0.4.33 in
/// Debian 12) frees a program's memory without taking its own lock, so two photos resized
/// at once could corrupt its list of that memory and crash the build or hang it. Pixels
/// are worked out outside it, on every core. (libvips 8.15 and later have no liborc.)
static pthread_mutex_t vector_gate = PTHREAD_MUTEX_INITIALIZER;

/// Drops `image`, and with it the resize that made it, inside the gate.
static void drop_pipeline(VipsImage *image) {
    pthread_mutex_lock(&vector_gate);
    sg_g_object_unref(image);
    pthread_mutex_unlock(&vector_gate);
}

static void open_once(void) {
    // SITEGEN_LIBVIPS names another libvips (one built by hand, in another folder).
    const char *named = getenv("SITEGEN_LIBVIPS");
    void *library = dlopen(named && *named ? named : "libvips.so.42", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        open_error = named && *named ? "the libvips SITEGEN_LIBVIPS names could not be opened"
                                     : "libvips is not installed";
        return;
    }
#define RESOLVE(name, result, parameters) \
    sg_##name = (result (*) parameters)dlsym(library, #name); \
    if (!sg_##name) { open_error = "libvips lacks " #name ": sitegen needs libvips 8.12 or later"; return; }
    SITEGEN_VIPS_FUNCTIONS(RESOLVE)
#undef RESOLVE
    if (sg_vips_init("sitegen") != 0) {
        open_error = "libvips would not start";
        return;
    }
    // sitegen runs one photo per core itself, and a photo's pixels are not wanted again
    // once its sizes are made: no threads within a photo, and no cache of operations
    // (which would hold every decoded photo).
    sg_vips_concurrency_set(1);
    sg_vips_cache_set_max(0);
    // libvips starts threads of its own for each photo, and glibc gives threads arenas of
    // their own, up to eight per core, each keeping the memory of the photos it held:
    // peak memory grew with the number of photos (the figures are in the performance log).
    // As many arenas as cores keep it flat.
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    mallopt(M_ARENA_MAX, cores > 1 ? (int)cores : 2);
}

int sitegen_vips_open(const char **error) {
    pthread_once(&opened, open_once);
    if (open_error) {
        *error = open_error;
        return 1;
    }
    return 0;
}

/// libvips's message for the failure just now, copied, and its buffer cleared.
static char *take_error(void) {
    const char *buffer = sg_vips_error_buffer();
    char *copy = strdup(buffer && *buffer ? buffer : "libvips gave no reason");
    sg_vips_error_clear();
    size_t length = strlen(copy);
    while (length > 0 && (copy[length - 1] == '\n' || copy[length - 1] == ' ')) copy[--length] = 0;
    return copy;
}

/// The pixels of `image`, worked out, in an image of their own: one that carries nothing
/// but them. No EXIF, XMP, IPTC or colour profile of the photo can reach a file made from
/// it, whatever a saver of this libvips does with its `strip` option.
static sitegen_picture *held(VipsImage *image, char **error) {
    size_t size = 0;
    void *pixels = sg_vips_image_write_to_memory(image, &size);
    int width = sg_vips_image_get_width(image), height = sg_vips_image_get_height(image);
    int bands = sg_vips_image_get_bands(image), format = sg_vips_image_get_format(image);
    drop_pipeline(image);
    if (!pixels) {
        *error = take_error();
        return NULL;
    }
    VipsImage *bare = sg_vips_image_new_from_memory(pixels, size, width, height, bands, format);
    if (!bare) {
        sg_g_free(pixels);
        *error = take_error();
        return NULL;
    }
    sitegen_picture *picture = malloc(sizeof *picture);
    picture->image = bare;
    picture->pixels = pixels;
    return picture;
}

sitegen_picture *sitegen_picture_decode(const void *bytes, size_t length, int width, int height, char **error) {
    VipsImage *out = NULL;
    // thumbnail turns the photo upright by its EXIF orientation and converts an embedded
    // colour profile to sRGB; a JPEG shrinks while it decodes. A file cut short is an
    // error, not grey rows. The size is forced: the caller worked out the height the page
    // says, which rounding could otherwise miss by a pixel.
    pthread_mutex_lock(&vector_gate);
    int status = sg_vips_thumbnail_buffer((void *)bytes, length, &out, width,
                                          "height", height,
                                          "size", SITEGEN_VIPS_SIZE_FORCE,
                                          "option_string", "fail_on=truncated",
                                          NULL);
    pthread_mutex_unlock(&vector_gate);
    if (status != 0) {
        *error = take_error();
        return NULL;
    }
    return held(out, error);
}

sitegen_picture *sitegen_picture_resized(sitegen_picture *picture, int width, int height, char **error) {
    VipsImage *out = NULL;
    pthread_mutex_lock(&vector_gate);
    int status = sg_vips_thumbnail_image(picture->image, &out, width,
                                         "height", height,
                                         "size", SITEGEN_VIPS_SIZE_FORCE,
                                         "no_rotate", 1,
                                         NULL);
    pthread_mutex_unlock(&vector_gate);
    if (status != 0) {
        *error = take_error();
        return NULL;
    }
    return held(out, error);
}

int sitegen_picture_width(const sitegen_picture *picture) { return sg_vips_image_get_width(picture->image); }
int sitegen_picture_height(const sitegen_picture *picture) { return sg_vips_image_get_height(picture->image); }

/// `image` with its transparency laid on white, as a new reference.
static int flattened(VipsImage *image, VipsImage **out) {
    double white[] = {255, 255, 255};
    VipsArrayDouble *background = sg_vips_array_double_new(white, sg_vips_image_get_bands(image) >= 3 ? 3 : 1);
    int status = sg_vips_flatten(image, out, "background", background, NULL);
    sg_vips_area_unref((VipsArea *)background);
    return status;
}

int sitegen_picture_encode(sitegen_picture *picture, sitegen_encoding encoding, int quality, void **bytes, size_t *length, char **error) {
    const int strip = 1;
    VipsImage *image = picture->image;
    VipsImage *flat = NULL;
    if (encoding == SITEGEN_ENCODE_JPEG && sg_vips_image_hasalpha(image)) {
        if (flattened(image, &flat) != 0) {
            *error = take_error();
            return 1;
        }
        image = flat;
    }
    int status;
    switch (encoding) {
    case SITEGEN_ENCODE_JPEG:
        status = sg_vips_jpegsave_buffer(image, bytes, length, "Q", quality, "strip", strip, "optimize_coding", 1, NULL);
        break;
    case SITEGEN_ENCODE_WEBP:
        status = sg_vips_webpsave_buffer(image, bytes, length, "Q", quality, "strip", strip, NULL);
        break;
    case SITEGEN_ENCODE_AVIF:
        status = sg_vips_heifsave_buffer(image, bytes, length, "Q", quality, "strip", strip, "compression", SITEGEN_VIPS_HEIF_COMPRESSION_AV1, NULL);
        break;
    default:
        status = sg_vips_pngsave_buffer(image, bytes, length, "strip", strip, NULL);
        break;
    }
    if (flat) sg_g_object_unref(flat);
    if (status != 0) {
        *error = take_error();
        return 1;
    }
    return 0;
}

/// The steps from `picture` to 8 pixels across, flattened, in sRGB, as bytes: set up, not
/// worked out. 0 when `steps[3]` holds the last.
static int mean_colour_steps(sitegen_picture *picture, VipsImage *steps[4]) {
    if (sg_vips_thumbnail_image(picture->image, &steps[0], 8, "no_rotate", 1, NULL) != 0) return 1;
    VipsImage *current = steps[0];
    if (sg_vips_image_hasalpha(current)) {
        if (flattened(current, &steps[1]) != 0) return 1;
        current = steps[1];
    }
    if (sg_vips_colourspace(current, &steps[2], SITEGEN_VIPS_INTERPRETATION_SRGB, NULL) != 0) return 1;
    return sg_vips_cast(steps[2], &steps[3], SITEGEN_VIPS_FORMAT_UCHAR, NULL) != 0;
}

int32_t sitegen_picture_mean_colour(sitegen_picture *picture) {
    VipsImage *steps[4] = {NULL, NULL, NULL, NULL};
    int32_t colour = -1;
    pthread_mutex_lock(&vector_gate);
    int status = mean_colour_steps(picture, steps);
    pthread_mutex_unlock(&vector_gate);
    if (status == 0) {
        size_t size = 0;
        unsigned char *pixels = sg_vips_image_write_to_memory(steps[3], &size);
        int bands = sg_vips_image_get_bands(steps[3]);
        if (pixels && bands >= 3) {
            size_t count = size / (size_t)bands;
            unsigned long sums[3] = {0, 0, 0};
            for (size_t i = 0; i < count; i++)
                for (int band = 0; band < 3; band++) sums[band] += pixels[i * (size_t)bands + (size_t)band];
            if (count > 0)
                colour = (int32_t)((sums[0] / count) << 16 | (sums[1] / count) << 8 | (sums[2] / count));
        }
        if (pixels) sg_g_free(pixels);
    }
    for (int i = 0; i < 4; i++)
        if (steps[i]) drop_pipeline(steps[i]);
    if (colour < 0) sg_vips_error_clear();
    return colour;
}

void sitegen_picture_free(sitegen_picture *picture) {
    if (!picture) return;
    sg_g_object_unref(picture->image);
    sg_g_free(picture->pixels);
    free(picture);
}

void sitegen_buffer_free(void *bytes) { sg_g_free(bytes); }

void sitegen_error_free(char *error) { free(error); }
