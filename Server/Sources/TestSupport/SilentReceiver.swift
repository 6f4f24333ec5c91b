import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A webhook receiver that takes every connection and never answers (nor reads): the hung or black-holed
/// endpoint a dispatcher must not let delay anyone else. It counts the connections it was given.
public final class SilentReceiver: Sendable {
    /// The loopback port it listens on.
    public let port: Int
    /// Where to post: `http://127.0.0.1:<port>`.
    public var base: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let accepted = Mutex<[Int32]>([])
    private let stopped = Mutex(false)

    /// Listens on a free loopback port and takes connections on a thread of its own until ``stop()``.
    /// - Throws: `POSIXError` when the socket cannot be made.
    public init() throws {
        let reserved = try ReservedPort()
        let descriptor = reserved.descriptor
        guard listen(descriptor, 1_024) == 0 else {
            let code = errno
            reserved.release()
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        listener = descriptor
        port = reserved.port
        let thread = Thread { [self] in
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else {
                    if errno == EINTR { continue }
                    return
                }
                self.accepted.withLock { $0.append(connection) }
            }
        }
        thread.start()
    }

    /// The connections taken so far.
    public var connections: Int { accepted.withLock { $0.count } }

    /// Stops listening and closes every connection it holds (once; later calls do nothing).
    public func stop() {
        guard
            stopped.withLock({ stopped in
                defer { stopped = true }
                return !stopped
            })
        else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in accepted.withLock({ held in
            defer { held = [] }
            return held
        }) {
            close(connection)
        }
    }
}
