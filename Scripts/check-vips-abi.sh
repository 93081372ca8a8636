#!/usr/bin/env bash
# Compiles sitegen's declarations of the libvips functions it opens at run time
# (Sources/CVips/VipsFunctions.h) against libvips-dev's headers: any function or number
# that differs from libvips's own fails to compile.
set -euo pipefail
cd "$(dirname "$0")/.."
check=$(mktemp -d)
trap 'rm -rf "$check"' EXIT
{
    echo '#include <vips/vips.h>'
    echo '#include "Sources/CVips/VipsFunctions.h"'
    echo '#define SAME(name, result, parameters) _Static_assert(__builtin_types_compatible_p(__typeof__(&name), result (*) parameters), #name " is declared otherwise by libvips");'
    echo 'SITEGEN_VIPS_FUNCTIONS(SAME)'
    echo '_Static_assert(SITEGEN_VIPS_INTERPRETATION_SRGB == VIPS_INTERPRETATION_sRGB, "sRGB");'
    echo '_Static_assert(SITEGEN_VIPS_FORMAT_UCHAR == VIPS_FORMAT_UCHAR, "uchar");'
    echo '_Static_assert(SITEGEN_VIPS_SIZE_FORCE == VIPS_SIZE_FORCE, "size force");'
    echo '_Static_assert(SITEGEN_VIPS_HEIF_COMPRESSION_AV1 == VIPS_FOREIGN_HEIF_COMPRESSION_AV1, "AV1");'
} > "$check/abi.c"
# shellcheck disable=SC2046
cc -std=c11 -fsyntax-only -Werror -I. $(pkg-config --cflags vips) "$check/abi.c"
echo "libvips declarations: as libvips-dev $(pkg-config --modversion vips) has them"
