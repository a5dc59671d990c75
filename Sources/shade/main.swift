@preconcurrency import Glibc
import ShadeCore
// jemalloc is the process's malloc (DECISIONS.md 146): linked through the target's dependency and
// this import; nothing of it is called by name.
import CJemalloc

// The executable: parse the command line, run a command, exit with its code.
// Exit codes (DESIGN.md): 0 success; 1 lint errors or rejected input where the command checks it;
// 2 usage errors, with a one-line message on stderr that names the problem and the fix.

// A parent may have started us with signals blocked (a test runner's thread, some supervisors):
// the run loop relies on SIGINT, SIGTERM, SIGHUP and SIGWINCH arriving.
var wanted = sigset_t()
sigemptyset(&wanted)
for signo in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] { sigaddset(&wanted, signo) }
pthread_sigmask(SIG_UNBLOCK, &wanted, nil)

let arguments = Array(CommandLine.arguments.dropFirst())
let status = Shade.run(arguments)
exit(status)
