/// A runtime failure of a command (a file that cannot be read, a server that cannot start): printed as one line
/// naming what failed, without the usage text, and the command exits 1. A wrong command line is a
/// `ValidationError` instead (usage, exit 2).
struct CommandFailure: Error, CustomStringConvertible {
    /// The line to print.
    let message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}
