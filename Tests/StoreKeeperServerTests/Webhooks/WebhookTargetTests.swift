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
}
