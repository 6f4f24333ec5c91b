import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to a loopback port, for requests no HTTP client would send (malformed chunks, a
/// request line without a version, a body that never comes).
public final class RawConnection: @unchecked Sendable {
    var descriptor: Int32

    /// Connects to `127.0.0.1:port`.
    /// - Parameters:
    ///   - port: The port.
    ///   - receiveBuffer: The socket's receive buffer in bytes (a small one plays a client that reads slowly), or
    ///     `nil` for the system's.
    /// - Throws: `POSIXError` when the connection fails.
    public init(port: Int, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            descriptor = -1
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED)
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Sends bytes.
    public func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until the peer closes the connection or `seconds` pass.
    /// - Returns: What arrived, and whether the peer closed the connection.
    public func readUntilClosed(within seconds: Double) async -> (text: String, closed: Bool) {
        await read(until: nil, within: seconds)
    }

    /// Reads until what arrived ends with `marker`, the peer closes the connection, or `seconds` pass. It never
    /// blocks a thread: a test's server may run on the same few threads of the concurrency pool.
    /// - Returns: What arrived, and whether the peer closed the connection.
    public func read(until marker: String?, within seconds: Double) async -> (text: String, closed: Bool) {
        var received = [UInt8]()
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 0) > 0 else {
                try? await Task.sleep(for: .milliseconds(5))
                continue
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[0..<count]
            if let marker, String(decoding: received, as: UTF8.self).hasSuffix(marker) { break }
        }
        return (String(decoding: received, as: UTF8.self), false)
    }
}
