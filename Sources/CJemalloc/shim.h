#ifndef SHADE_CJEMALLOC_SHIM_H
#define SHADE_CJEMALLOC_SHIM_H
// jemalloc (Debian libjemalloc-dev): the shade executable's malloc. Linking it is all it takes: its
// malloc and free stand in for glibc's in the whole process (DECISIONS.md 146). Nothing here is
// called; the executable target depends on this module so that the linker adds the library.
#include <jemalloc/jemalloc.h>
#endif
