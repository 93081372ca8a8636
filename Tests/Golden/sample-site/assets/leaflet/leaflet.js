/* A stand-in for Leaflet, so the golden files do not depend on the Leaflet of the machine. */
