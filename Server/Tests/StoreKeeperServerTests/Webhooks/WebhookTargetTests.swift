import Testing

@testable import StoreKeeperServer

/// Which addresses webhook deliveries never go to, and which stay allowed (loopback and private networks: where a
/// self-hosted owner's backend usually lives).
@Suite struct WebhookTargetTests {
    @Test(
        "link-local (cloud metadata), unspecified, multicast and broadcast addresses are refused",
        arguments: [
            "169.254.169.254", "169.254.0.1", "0.0.0.0", "0.1.2.3", "224.0.0.1", "239.255.255.250",
            "255.255.255.255", "fe80::1", "[fe80::abcd]", "::", "ff02::1", "::ffff:169.254.169.254",
            // 169.254.169.254 written as the resolver also reads it: one number, hexadecimal, two parts.
            "2852039166", "0xa9fea9fe", "169.254.43518",
            // Carrier-grade NAT (Alibaba Cloud's metadata at 100.100.100.200) and the other clouds' metadata.
            "100.64.0.1", "100.100.100.200", "100.127.255.254", "168.63.129.16", "192.0.0.192", "fd00:ec2::254",
            "[fd20:ce::254]",
            // IPv4 metadata reached through IPv6: NAT64 (well-known and local-use), IPv4-compatible, 6to4.
            "64:ff9b::a9fe:a9fe", "64:ff9b::100.100.100.200", "64:ff9b:1::a9fe:a9fe", "::169.254.169.254",
            "2002:a9fe:a9fe::1",
            // IPv4-translated (SIIT): the same address through ::ffff:0:0/96.
            "::ffff:0:169.254.169.254", "[::ffff:0:a9fe:a9fe]",
        ])
    func refused(_ host: String) async {
        #expect(WebhookTarget.refusal(literal: host) != nil, "\(host)")
        #expect(await WebhookTarget.refusal(resolving: host) != nil, "\(host)")
    }

    @Test(
        "public, private and loopback addresses and host names are allowed",
        arguments: [
            "127.0.0.1", "10.0.0.5", "172.16.3.4", "192.168.1.1", "8.8.8.8", "::1", "[::1]", "2001:db8::1",
            "::ffff:10.0.0.1", "hooks.example.com", "localhost", "2130706433",
            // The neighbours of what is refused.
            "100.63.255.255", "100.128.0.1", "168.63.129.17", "192.0.1.1", "fd00:ec2::253", "fd00::1",
            "64:ff9b::808:808", "64:ff9b::a00:5", "2002:808:808::1",
        ])
    func allowed(_ host: String) async {
        #expect(WebhookTarget.refusal(literal: host) == nil, "\(host)")
        #expect(await WebhookTarget.refusal(resolving: host) == nil, "\(host)")
    }

    @Test("the reason names the kind of address")
    func reasons() {
        #expect(WebhookTarget.refusal(literal: "169.254.169.254")?.contains("metadata") == true)
        #expect(WebhookTarget.refusal(literal: "[fe80::1]")?.contains("fe80::/10") == true)
    }

    @Test("the delivery log says the same for every transport failure: no port-scanning oracle, no errno")
    func deliveryLogHidesTransportDetail() {
        let failures: [WebhookHTTPError] = [
            .unresolved(host: "internal.example"),
            .unreachable(host: "10.0.0.5", port: 22, reason: "connection refused"),
            .unreachable(host: "10.0.0.5", port: 23, reason: "timed out"), .closed(answered: false),
            .closed(answered: true), .timedOut,
        ]
        #expect(Set(failures.map(\.deliveryLog)) == ["no HTTP answer"])
        #expect(failures.allSatisfy { !$0.deliveryLog.contains("10.0.0.5") })
        // The server's own log keeps the detail; a refused address keeps its policy reason.
        #expect(
            WebhookHTTPError.unreachable(host: "h", port: 1, reason: "connection refused").description.contains(
                "refused"))
        #expect(WebhookHTTPError.refused("a link-local address").deliveryLog.contains("never sent there"))
    }
}
