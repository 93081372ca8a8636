#!/usr/bin/env bash
# Compiles sitegen's declarations of the C libraries it opens at run time against their
# -dev packages' headers: libvips (Sources/CVips/VipsFunctions.h) and libqrencode
# (Sources/CQRCode/QRFunctions.h). Any function, layout or number that differs from the
# library's own fails to compile.
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

# The same for libqrencode (Sources/CQRCode/QRFunctions.h): its functions, the layout of
# its QRcode, and the numbers of the error correction levels.
{
    echo '#include <stddef.h>'
    echo '#include <qrencode.h>'
    echo '#define SITEGEN_QR_CODE_TYPE QRcode'
    echo '#include "Sources/CQRCode/QRFunctions.h"'
    echo '#define SAME(name, result, parameters) _Static_assert(__builtin_types_compatible_p(__typeof__(&name), result (*) parameters), #name " is declared otherwise by libqrencode");'
    echo 'SITEGEN_QR_FUNCTIONS(SAME)'
    echo '_Static_assert(sizeof(QRcode) == sizeof(sitegen_qrcode), "QRcode size");'
    echo '_Static_assert(offsetof(QRcode, width) == offsetof(sitegen_qrcode, width), "QRcode width");'
    echo '_Static_assert(offsetof(QRcode, data) == offsetof(sitegen_qrcode, data), "QRcode data");'
    echo '_Static_assert(__builtin_types_compatible_p(QRecLevel, sitegen_qr_level), "QRecLevel");'
    echo '_Static_assert(QR_ECLEVEL_L == 0 && QR_ECLEVEL_M == 1 && QR_ECLEVEL_Q == 2 && QR_ECLEVEL_H == 3, "levels");'
} > "$check/qr.c"
cc -std=c11 -fsyntax-only -Werror -I. "$check/qr.c"
echo "libqrencode declarations: as libqrencode-dev $(pkg-config --modversion libqrencode) has them"
