package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes lines to standard output and standard error. When the reader has gone away (`storekeeper … | head`)
/// the command stops quietly, as Unix tools do, instead of trapping on the broken pipe.
package enum FileHandleOutput {
    package static func standardError(_ text: String) { write(FileHandle.standardError, text) }

    package static func standardOutput(_ text: String) { write(FileHandle.standardOutput, text) }

    package static func write(_ handle: FileHandle, _ text: String) {
        do {
            try handle.write(contentsOf: Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
        } catch {
            // A closed pipe ends the output, not the world; any other failure to write is a failure.
            exit(isBrokenPipe(error as NSError) ? 0 : 1)
        }
    }

    /// Whether a write failed because the reader is gone: EPIPE, itself or under Foundation's file error.
    package static func isBrokenPipe(_ error: NSError) -> Bool {
        if error.domain == NSPOSIXErrorDomain, error.code == Int(EPIPE) { return true }
        return (error.userInfo[NSUnderlyingErrorKey] as? NSError).map(isBrokenPipe) ?? false
    }
}
