/// A runtime failure of a command (a file that cannot be read, a server that cannot start): printed as one line
/// naming what failed, without the usage text, and the command exits 1. A wrong command line is a
/// `ValidationError` instead (usage, exit 2).
package struct CommandFailure: Error, CustomStringConvertible {
    /// The line to print.
    package let message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}
