import AppStoreSimulator
import Foundation
import TestSupport
import Testing
import X509

/// The simulator's chains carry the key identifiers Apple's do — strict verifiers, Apple's own library among
/// them, refuse a chain without them: a subject key identifier on every certificate, and below the root an
/// authority key identifier equal to the issuer's subject key identifier.
@Suite struct SimulatorPKITests {
    static func check(_ chain: [Certificate], _ name: String) throws {
        #expect(chain.count == 3, "\(name)")
        var issuerIdentifier: ArraySlice<UInt8>?
        for (depth, certificate) in chain.reversed().enumerated() {
            let subject = try #require(
                try certificate.extensions.subjectKeyIdentifier, "\(name) certificate \(depth) has no SKI")
            #expect(subject.keyIdentifier == SubjectKeyIdentifier(hash: certificate.publicKey).keyIdentifier)
            if let issuerIdentifier {
                let authority = try #require(
                    try certificate.extensions.authorityKeyIdentifier, "\(name) certificate \(depth) has no AKI")
                #expect(authority.keyIdentifier == issuerIdentifier, "\(name) certificate \(depth)")
            }
            issuerIdentifier = subject.keyIdentifier
        }
    }

    @Test("signed data and receipt chains: SKI everywhere, AKI = the issuer's SKI below the root")
    func keyIdentifiers() throws {
        let pki = SimulatorHarness.sharedPKI
        try Self.check([pki.signedData.leaf, pki.signedData.intermediate, pki.signedData.root], "signed data")
        try Self.check(pki.receipts.certificates, "receipts")
    }
}
