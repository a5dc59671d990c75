// NDJSON load client for `shade listen`: sends every line of a file over a unix socket with up to
// WINDOW lines unacknowledged, reads one reply line per line sent, and prints pushes/s. A small C
// client so that the client, not Shade's own `shade send` (one blocking request at a time), is never
// the bottleneck. Usage: ndjson-client SOCKET FILE [WINDOW]
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: ndjson-client SOCKET FILE [WINDOW]\n"); return 2; }
  long window = argc > 3 ? atol(argv[3]) : 256;
  int file = open(argv[2], O_RDONLY);
  struct stat st;
  if (file < 0 || fstat(file, &st) != 0) { perror(argv[2]); return 2; }
  const char *data = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, file, 0);
  if (data == MAP_FAILED) { perror("mmap"); return 2; }
  long lines = 0;
  for (off_t i = 0; i < st.st_size; i++) if (data[i] == '\n') lines++;
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  strncpy(addr.sun_path, argv[1], sizeof addr.sun_path - 1);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) { perror("connect"); return 2; }
  fcntl(fd, F_SETFL, O_NONBLOCK);
  off_t sent = 0;         // bytes of the file written
  long sentLines = 0, acked = 0, refused = 0;
  char buf[1 << 16];
  int lastWasOk = 0;      // the reply line being read so far starts {"ok": true
  size_t replyPos = 0;
  double start = now();
  while (acked < lines) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    if (sent < st.st_size && sentLines - acked < window) p.events |= POLLOUT;
    if (poll(&p, 1, 10000) <= 0) { fprintf(stderr, "timeout: %ld of %ld acknowledged\n", acked, lines); return 1; }
    if (p.revents & POLLOUT) {
      // Up to the end of the line that keeps the window full.
      off_t end = sent;
      long allowed = window - (sentLines - acked);
      while (end < st.st_size && allowed > 0 && end - sent < (1 << 16)) {
        const char *nl = memchr(data + end, '\n', st.st_size - end);
        end = nl ? nl - data + 1 : st.st_size;
        allowed--;
      }
      ssize_t n = write(fd, data + sent, end - sent);
      if (n < 0 && errno != EAGAIN) { perror("write"); return 1; }
      for (ssize_t i = 0; i < n; i++) if (data[sent + i] == '\n') sentLines++;
      if (n > 0) sent += n;
    }
    if (p.revents & (POLLIN | POLLHUP)) {
      ssize_t n = read(fd, buf, sizeof buf);
      if (n == 0) { fprintf(stderr, "closed: %ld of %ld acknowledged\n", acked, lines); return 1; }
      if (n < 0 && errno != EAGAIN) { perror("read"); return 1; }
      for (ssize_t i = 0; i < n; i++) {
        if (replyPos == 7) lastWasOk = buf[i] == 't';   // {"ok": t…
        replyPos++;
        if (buf[i] == '\n') { acked++; if (!lastWasOk) refused++; replyPos = 0; }
      }
    }
  }
  double seconds = now() - start;
  printf("%ld %ld %.3f %.0f\n", acked, refused, seconds, acked / seconds);
  return 0;
}
