// The files of Debian's libjs-leaflet and libjs-leaflet.markercluster, taken into the binary
// when it is compiled. The licences of both go with every release (Scripts/dist.sh).
#if !__has_include("/usr/share/javascript/leaflet/leaflet.js") || !__has_include("/usr/share/javascript/leaflet/leaflet.markercluster.js")
#error "sitegen carries Leaflet for its map: apt-get install libjs-leaflet libjs-leaflet.markercluster (make site does)"
#endif

#define EMBED(symbol, file) \
    .section .rodata; .balign 16; .global symbol; symbol:; .incbin file; \
    .global symbol##_end; symbol##_end:; .byte 0

EMBED(sitegen_leaflet_js, "/usr/share/javascript/leaflet/leaflet.js")
EMBED(sitegen_leaflet_css, "/usr/share/javascript/leaflet/leaflet.css")
EMBED(sitegen_markercluster_js, "/usr/share/javascript/leaflet/leaflet.markercluster.js")
EMBED(sitegen_markercluster_css, "/usr/share/javascript/leaflet/MarkerCluster.css")
EMBED(sitegen_markercluster_default_css, "/usr/share/javascript/leaflet/MarkerCluster.Default.css")
EMBED(sitegen_layers_png, "/usr/share/javascript/leaflet/images/layers.png")
EMBED(sitegen_layers_2x_png, "/usr/share/javascript/leaflet/images/layers-2x.png")
EMBED(sitegen_marker_icon_png, "/usr/share/javascript/leaflet/images/marker-icon.png")
EMBED(sitegen_marker_icon_2x_png, "/usr/share/javascript/leaflet/images/marker-icon-2x.png")
EMBED(sitegen_marker_shadow_png, "/usr/share/javascript/leaflet/images/marker-shadow.png")

.section .note.GNU-stack, "", %progbits
