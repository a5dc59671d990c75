#!/usr/bin/env bash
# The Debian packages of the C libraries Shade links (ncursesw, OpenSSL, libnghttp2, zlib, jemalloc)
# that this machine lacks, one a line: the one list `.ci/run` and `bench/run.sh` install from.
[ -e /usr/include/ncursesw/curses.h ] || echo libncurses-dev
[ -e /usr/include/openssl/ssl.h ] || echo libssl-dev
[ -e /usr/include/nghttp2/nghttp2.h ] || echo libnghttp2-dev
[ -e /usr/include/zlib.h ] || echo zlib1g-dev
[ -e /usr/include/jemalloc/jemalloc.h ] || echo libjemalloc-dev
exit 0
