// QR codes through libqrencode, opened at run time.
#ifndef SITEGEN_CQRCODE_H
#define SITEGEN_CQRCODE_H

/// Opens libqrencode, once per process; 0 when it is ready, else nonzero with `*error`
/// saying why (a static string: do not free).
int sitegen_qr_open(const char **error);

/// The QR code of the UTF-8 `text` (all of it as bytes, the smallest version that holds
/// it) at error correction `level` (0 L, 1 M, 2 Q, 3 H): `*width` × `*width` modules, a
/// byte each, 1 for a dark one, to be freed with sitegen_qr_free(). NULL when the text
/// does not fit or libqrencode is not open.
unsigned char *sitegen_qr_encode(const char *text, int level, int *width);
void sitegen_qr_free(unsigned char *modules);

#endif
