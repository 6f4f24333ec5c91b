import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port bound and never listened on, held until ``release()``: a connection to it is refused, and no
/// other server of the test process can take it meanwhile (a port merely closed can be reused at once by another
/// test running in parallel, which then answers).
public final class ReservedPort: Sendable {
    /// The port.
    public let port: Int
    /// The bound socket (``SilentReceiver`` listens on it).
    let descriptor: Int32

    /// Binds a free loopback port.
    /// - Throws: `POSIXError` when no socket can be bound.
    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Gives the port back.
    public func release() { close(descriptor) }
}
