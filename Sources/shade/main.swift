@preconcurrency import Glibc
import ShadeCore

// The executable: parse the command line, run a command, exit with its code.
// Exit codes (DESIGN.md): 0 success; 1 lint errors or rejected input where the command checks it;
// 2 usage errors, with a one-line message on stderr that names the problem and the fix.

let arguments = Array(CommandLine.arguments.dropFirst())
let status = Shade.run(arguments)
exit(status)
