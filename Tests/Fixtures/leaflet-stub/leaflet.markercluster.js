/* A stand-in for the marker clusters. */
