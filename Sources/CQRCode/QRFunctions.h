// The functions of libqrencode (4.0 and later) that sitegen opens at run time, as
// libqrencode declares them, without its header: the release binary links no library but
// the C library, and a sitegen without libqrencode still builds sites without homework.
// Scripts/check-c-abi.sh compiles these against libqrencode-dev's header.
#ifndef SITEGEN_QR_FUNCTIONS_H
#define SITEGEN_QR_FUNCTIONS_H

/// libqrencode's QRcode: the symbol's version, its width in modules, and a byte per
/// module, whose lowest bit is set for a dark one.
typedef struct {
    int version;
    int width;
    unsigned char *data;
} sitegen_qrcode;

/// The type the functions take and give: the check of these declarations names
/// libqrencode's own, whose layout it compares with this one.
#ifndef SITEGEN_QR_CODE_TYPE
#define SITEGEN_QR_CODE_TYPE sitegen_qrcode
#endif

/// QRecLevel, an enum whose values are all positive: unsigned, as the compiler makes it.
typedef unsigned int sitegen_qr_level;

#define SITEGEN_QR_FUNCTIONS(X) \
    X(QRcode_encodeString8bit, SITEGEN_QR_CODE_TYPE *, (const char *string, int version, sitegen_qr_level level)) \
    X(QRcode_free, void, (SITEGEN_QR_CODE_TYPE *qrcode))

#endif
