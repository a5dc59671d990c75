import ShadeCore

extension ListenCommand {
    /// The port of a `shade listen` already running, for a command that points clients at it
    /// (`shade env`, `shade subscription`): `--port`, or the default. 0 asks `listen` for a free port,
    /// different each run, so it names no running Shade here.
    static func runningPort(_ parsed: ParsedArguments, for command: String) throws(UsageError) -> Int {
        let port = try portOption(parsed) ?? defaultPort
        guard port != 0 else {
            throw UsageError("--port 0 means \"any free port\" to `shade listen`; give `\(command)` the port it printed")
        }
        return port
    }
}
