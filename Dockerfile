# sitegen in a container, for macOS, Windows and any machine without a release to run:
#   docker run --rm -v "$PWD:/site" -w /site ghcr.io/OWNER/REPO:VERSION build
# (on Linux, add --user "$(id -u):$(id -g)" so that the files written are yours).
# The release workflow builds it for x86_64 and arm64 and pushes it to GitHub's registry.

# The binary, built as the release builds it: Swift's runtime, Foundation, libcmark, libyaml
# and Leaflet inside; sitegen-import links libcurl and libxml2 by their -dev names.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libcmark-dev libyaml-dev libcurl4-openssl-dev libxml2-dev libjs-leaflet libjs-leaflet.markercluster \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# The commit and repository, which the build cannot ask git for without the .git folder.
ARG SITEGEN_COMMIT=""
ARG SITEGEN_REPOSITORY=""
RUN SITEGEN_COMMIT="$SITEGEN_COMMIT" SITEGEN_REPOSITORY="$SITEGEN_REPOSITORY" Scripts/build-release.sh \
    && install -D -m 755 .build/release/sitegen /out/sitegen \
    && install -D -m 755 .build/release/sitegen-import /out/sitegen-import \
    && strip --strip-unneeded /out/sitegen /out/sitegen-import

# sitegen needs the C library, libvips to publish photos and libqrencode for posters;
# sitegen-import (`sitegen import`) libcurl and libxml2.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libvips42 libqrencode4 libcurl4 libxml2 ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/sitegen /out/sitegen-import /usr/local/bin/
WORKDIR /site
ENTRYPOINT ["sitegen"]
CMD ["--help"]
