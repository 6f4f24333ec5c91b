public import X509

/// Small certificate helpers for tests.
public enum X509Bridge {
    /// The subject name of a DER certificate.
    public static func subject(_ der: [UInt8]) throws -> DistinguishedName {
        try Certificate(derEncoded: der).subject
    }
}
