import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A long command's progress on standard error (`importing: 40/200 rows (20 %)`): one line rewritten in place on a
/// terminal, otherwise a line at each tenth.
package final class ProgressLine {
    package let label: String
    package let unit: String
    package let total: Int
    package var done = 0
    package var shownTenth = 0
    package let terminal = isatty(STDERR_FILENO) == 1

    package init(label: String, unit: String, total: Int) {
        self.label = label
        self.unit = unit
        self.total = total
    }

    /// One more done.
    /// - Parameter detail: Said after the count (`, 3,120 subscribers paying`).
    package func advance(detail: String = "") {
        done += 1
        let text = "\(label): \(done)/\(total) \(unit) (\(total == 0 ? 100 : done * 100 / total) %)\(detail)"
        if terminal {
            FileHandle.standardError.write(Data(("\r" + text + "\u{1B}[K").utf8))
        } else if total > 0, done * 10 / total > shownTenth {
            shownTenth = done * 10 / total
            FileHandleOutput.standardError(text)
        }
    }

    /// Says why the work pauses (a wait for Apple) on a line of its own; the count goes on below it.
    package func note(_ text: String) {
        FileHandle.standardError.write(Data(((terminal ? "\r\u{1B}[K" : "") + "\(label): \(text)\n").utf8))
    }

    /// Ends the line on a terminal.
    package func finish() {
        if terminal, total > 0 { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
