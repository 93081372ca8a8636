// Leaflet and its marker-cluster plugin, carried in the binary (Leaflet.S) so that a site's
// map never depends on what the building machine has installed.
#include <stddef.h>

struct sitegen_embedded_file {
    const char *name;
    const unsigned char *bytes;
    size_t count;
};

// The number of files, and the file at `index` (below that number).
size_t sitegen_leaflet_file_count(void);
struct sitegen_embedded_file sitegen_leaflet_file(size_t index);
