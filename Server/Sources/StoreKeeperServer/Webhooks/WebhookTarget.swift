import Foundation
import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where webhook deliveries never go: addresses that are no receiver's and are the usual way to make a server
/// reach its host's secrets — link-local (169.254.0.0/16, where clouds serve instance metadata and credentials;
/// fe80::/10), carrier-grade NAT (100.64.0.0/10: Alibaba Cloud's metadata at 100.100.100.200, some clouds'
/// internal services), the other documented metadata addresses (Azure's 168.63.129.16, Oracle's 192.0.0.192 in
/// 192.0.0.0/24, AWS's fd00:ec2::254, Google's fd20:ce::254), unspecified (0.0.0.0, ::), multicast and broadcast.
/// An IPv6 address that carries an IPv4 one (mapped `::ffff:a.b.c.d`, translated `::ffff:0:a.b.c.d`, compatible
/// `::a.b.c.d`, NAT64
/// `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`) is judged by the IPv4 address it reaches. Loopback and
/// private networks stay allowed: a self-hosted owner's backend usually lives there.
///
/// Checked twice: a URL naming such an address literally is refused when its endpoint is created, and a host name
/// is resolved before each new connection and the delivery refused when any address it names is one (a host could
/// be pointed there after the endpoint was made); the connection is then made to a checked address.
enum WebhookTarget {
    /// Why an address may not be a target, or `nil` when it may.
    static func refusal(ipv4 bytes: [UInt8]) -> String? {
        guard bytes.count == 4 else { return nil }
        if bytes[0] == 169 && bytes[1] == 254 { return "a link-local address (169.254.0.0/16, cloud metadata)" }
        if bytes[0] == 100 && bytes[1] & 0xC0 == 64 {
            return "a carrier-grade NAT address (100.64.0.0/10, cloud metadata and internal services)"
        }
        if bytes == [168, 63, 129, 16] { return "a cloud metadata address (168.63.129.16)" }
        if bytes[0] == 192 && bytes[1] == 0 && bytes[2] == 0 {
            return "an IETF protocol address (192.0.0.0/24, cloud metadata)"
        }
        if bytes == [0, 0, 0, 0] || bytes[0] == 0 { return "an unspecified address (0.0.0.0/8)" }
        if (224...239).contains(bytes[0]) { return "a multicast address" }
        if bytes == [255, 255, 255, 255] { return "the broadcast address" }
        return nil
    }

    /// Why an IPv6 address may not be a target, or `nil` when it may (IPv4-mapped addresses are judged as IPv4).
    static func refusal(ipv6 bytes: [UInt8]) -> String? {
        guard bytes.count == 16 else { return nil }
        if let embedded = embeddedIPv4(bytes) { return refusal(ipv4: embedded).map { "\($0), reached through IPv6" } }
        if metadataIPv6.contains(bytes) { return "a cloud metadata address (fd00:ec2::254, fd20:ce::254)" }
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return "a link-local address (fe80::/10)" }
        if bytes.allSatisfy({ $0 == 0 }) { return "the unspecified address (::)" }
        if bytes[0] == 0xFF { return "a multicast address" }
        return nil
    }

    /// The IPv4 address an IPv6 address carries and reaches: IPv4-mapped, -translated and -compatible, NAT64 (well-known
    /// 64:ff9b::/96 and local-use 64:ff9b:1::/48, the IPv4 address in the last 32 bits) and 6to4 (2002::/16, in
    /// bits 16–47); `nil` for any other.
    static func embeddedIPv4(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count == 16 else { return nil }
        let zeroPrefix = bytes[0..<10].allSatisfy { $0 == 0 }
        if zeroPrefix && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12..<16]) }
        // IPv4-translated (SIIT, ::ffff:0:a.b.c.d, RFC 2765).
        if bytes[0..<8].allSatisfy({ $0 == 0 }) && bytes[8] == 0xFF && bytes[9] == 0xFF && bytes[10] == 0
            && bytes[11] == 0
        {
            return Array(bytes[12..<16])
        }
        if zeroPrefix && bytes[10] == 0 && bytes[11] == 0 && !bytes[12..<15].allSatisfy({ $0 == 0 }) {
            return Array(bytes[12..<16])  // ::a.b.c.d (not ::1 or ::)
        }
        if bytes[0..<4] == [0x00, 0x64, 0xFF, 0x9B] && bytes[4..<12].allSatisfy({ $0 == 0 }) {
            return Array(bytes[12..<16])
        }
        if bytes[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return Array(bytes[12..<16]) }
        if bytes[0] == 0x20 && bytes[1] == 0x02 { return Array(bytes[2..<6]) }
        return nil
    }

    /// AWS's (fd00:ec2::254) and Google Cloud's (fd20:ce::254) instance metadata over IPv6: inside the private
    /// fc00::/7, which stays allowed, so named one by one.
    static let metadataIPv6: Set<[UInt8]> = [
        [0xFD, 0x00, 0x0E, 0xC2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54],
        [0xFD, 0x20, 0x00, 0xCE, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54],
    ]

    /// Why an address (4 or 16 bytes) may not be a target, or `nil` when it may.
    static func refusal(address: [UInt8]) -> String? {
        address.count == 4 ? refusal(ipv4: address) : refusal(ipv6: address)
    }

    /// Why a host written as an IP address (in any form the resolver reads as one) may not be a target; `nil` when
    /// it may, or when it is a name.
    static func refusal(literal host: String) -> String? {
        literalAddress(host).flatMap { refusal(address: $0) }
    }

    /// The address a host written as an IP address names (4 or 16 bytes), or `nil` for a name.
    static func literalAddress(_ host: String) -> [UInt8]? {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        // inet_aton, not inet_pton: it reads what the resolver and the HTTP client read as an IPv4 address,
        // including the old forms (2852039166, 0xa9fea9fe, 169.254.43518 all name 169.254.169.254).
        var v4 = in_addr()
        if inet_aton(bare, &v4) != 0 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// What resolving a delivery host found: a refused address, or the addresses a connection may be made to.
    enum Resolution: Sendable, Equatable {
        /// The host is, or names, an address deliveries never go to.
        case refused(String)
        /// Every address the host names (none when it does not resolve); each one was checked.
        case addresses([[UInt8]])
    }

    /// Resolves `host` and judges every address it names: refused when any one is refused. The webhook client
    /// connects only to the addresses of an answer that was not refused, so a name re-pointed after the check
    /// (DNS rebinding) never reaches a refused address. Answers are kept for 30 seconds (a round resolves each host
    /// once).
    /// - Parameters:
    ///   - host: The host as the URL names it.
    ///   - pool: Where the blocking lookup runs (the webhook client's own threads: on NIO's shared pool a lookup
    ///     would wait behind SQLite's work).
    static func resolution(of host: String, pool: NIOThreadPool = .singleton) async -> Resolution {
        if let literal = literalAddress(host) {
            return refusal(address: literal).map(Resolution.refused) ?? .addresses([literal])
        }
        guard !host.isEmpty else { return .addresses([]) }
        let now = ContinuousClock.now
        if let known = answers.withLock({ $0[host] }), known.until > now { return known.resolution }
        let addresses: [[UInt8]] = (try? await pool.runIfActive { Self.resolve(host) }) ?? []
        let found = addresses.lazy.compactMap { refusal(address: $0) }.first.map { "\(host) resolves to \($0)" }
        let resolution = found.map(Resolution.refused) ?? .addresses(addresses)
        answers.withLock { answers in
            if answers.count >= 1_000 { answers = [:] }
            answers[host] = (resolution, now + .seconds(30))
        }
        return resolution
    }

    /// Why a host may not be a target after resolving it: the first refused address it names, or `nil` (also when
    /// it does not resolve: the delivery then fails on its own).
    static func refusal(resolving host: String) async -> String? {
        if case .refused(let reason) = await resolution(of: host) { return reason }
        return nil
    }

    /// Whether `host` is written as an IP address (in any form the resolver reads as one), not a name.
    static func isAddressLiteral(_ host: String) -> Bool { literalAddress(host) != nil }

    /// Recent answers by host name, for 30 seconds.
    static let answers = Mutex<[String: (resolution: Resolution, until: ContinuousClock.Instant)]>([:])

    /// Every address `host` resolves to (blocking: run off the cooperative pool).
    static func resolve(_ host: String) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [[UInt8]] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = current.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                        var value = pointer.pointee.sin_addr
                        addresses.append(withUnsafeBytes(of: &value) { Array($0) })
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        var value = pointer.pointee.sin6_addr
                        addresses.append(withUnsafeBytes(of: &value) { Array($0) })
                    }
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
