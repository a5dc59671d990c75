#ifndef SHADE_CZLIB_SHIM_H
#define SHADE_CZLIB_SHIM_H
// zlib (Debian zlib1g-dev): gzip and deflate request bodies.
#include <zlib.h>
// inflateInit2 is a macro: re-exported for Swift.
static inline int shade_inflateInit2(z_streamp strm, int windowBits) { return inflateInit2(strm, windowBits); }
#endif
