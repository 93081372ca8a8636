// The static C++ library of GCC 12 (Debian 12) asks for arc4random, which glibc has only from
// 2.36 on, and with it a release binary linked on Debian 12 would not start on glibc 2.35
// (Ubuntu 22.04). This definition, taken before the C library's, keeps that request inside
// the binary. Nothing of sitegen's own calls it.
#ifdef __linux__
#include <stdint.h>
#include <sys/random.h>

uint32_t arc4random(void) {
    uint32_t value;
    while (getrandom(&value, sizeof value, 0) != (ssize_t)sizeof value) {
    }
    return value;
}
#endif
