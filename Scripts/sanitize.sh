#!/usr/bin/env bash
# Runs the Swift suites under AddressSanitizer (LeakSanitizer included), then the suites
# that run work at once (the build's stages, the cache and its writer, the photo store, the
# server and the watcher) under ThreadSanitizer. Each has a build folder of its own, so
# that the usual debug build is left as it is. Any report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

# Some tests run the usual debug binaries (sitegen, sitegen-import) as a user would.
swift build

# libvips compiles its SIMD loops at run time (liborc), into memory AddressSanitizer does
# not expect code in: it crashes there. Its plain C loops make the same photos.
export VIPS_NOVECTOR=1
# A report ends the run at once; Swift's own crash backtracer, run after it, only hangs.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/Scripts/sanitizers/lsan.supp:print_suppressions=0"
swift build --build-tests --sanitize=address --build-path .build/asan
# The golden files are left to make test: libvips' plain C loops make photos a few bytes
# apart from its SIMD ones, and each page names its photos' sizes and colours.
swift test --skip-build --sanitize=address --build-path .build/asan --skip matchesTheGoldenFiles

# Shared values are kept behind pthread mutexes, which ThreadSanitizer sees taken, instead
# of the standard library's Mutex, built without it (SitegenLocking).
export TSAN_OPTIONS="halt_on_error=1:suppressions=$PWD/Scripts/sanitizers/tsan.supp"
swift build --build-tests --sanitize=thread --build-path .build/tsan -Xswiftc -DSITEGEN_THREAD_SANITIZER
swift test --skip-build --sanitize=thread --build-path .build/tsan -Xswiftc -DSITEGEN_THREAD_SANITIZER \
    --filter 'Concurrency|BuildCache|CacheDifferential|PhotoFolder|Photo|Serve|Watcher|Staging|FileReplacer|Incremental|KillSafety|RequestHead|HTTPServer'
