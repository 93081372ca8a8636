#include "CLeaflet.h"

#define DECLARE(symbol) extern const unsigned char symbol[], symbol##_end[];
DECLARE(sitegen_leaflet_js)
DECLARE(sitegen_leaflet_css)
DECLARE(sitegen_markercluster_js)
DECLARE(sitegen_markercluster_css)
DECLARE(sitegen_markercluster_default_css)
DECLARE(sitegen_layers_png)
DECLARE(sitegen_layers_2x_png)
DECLARE(sitegen_marker_icon_png)
DECLARE(sitegen_marker_icon_2x_png)
DECLARE(sitegen_marker_shadow_png)

static const struct {
    const char *name;
    const unsigned char *start;
    const unsigned char *end;
} files[] = {
    {"leaflet.js", sitegen_leaflet_js, sitegen_leaflet_js_end},
    {"leaflet.css", sitegen_leaflet_css, sitegen_leaflet_css_end},
    {"leaflet.markercluster.js", sitegen_markercluster_js, sitegen_markercluster_js_end},
    {"MarkerCluster.css", sitegen_markercluster_css, sitegen_markercluster_css_end},
    {"MarkerCluster.Default.css", sitegen_markercluster_default_css, sitegen_markercluster_default_css_end},
    {"images/layers.png", sitegen_layers_png, sitegen_layers_png_end},
    {"images/layers-2x.png", sitegen_layers_2x_png, sitegen_layers_2x_png_end},
    {"images/marker-icon.png", sitegen_marker_icon_png, sitegen_marker_icon_png_end},
    {"images/marker-icon-2x.png", sitegen_marker_icon_2x_png, sitegen_marker_icon_2x_png_end},
    {"images/marker-shadow.png", sitegen_marker_shadow_png, sitegen_marker_shadow_png_end},
};

size_t sitegen_leaflet_file_count(void) { return sizeof files / sizeof files[0]; }

struct sitegen_embedded_file sitegen_leaflet_file(size_t index) {
    struct sitegen_embedded_file file = {files[index].name, files[index].start, (size_t)(files[index].end - files[index].start)};
    return file;
}
