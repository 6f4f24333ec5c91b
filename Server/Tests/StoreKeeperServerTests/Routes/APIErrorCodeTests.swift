import Foundation
import StoreKeeperAPI
import StoreKeeperServer
import TestSupport
import Testing

/// `APIErrorCode` is the one spelling of every error code: the server names codes only through it (a string
/// literal would compile, the type being `ExpressibleByStringLiteral`, so this test reads the sources), the
/// OpenAPI document lists exactly its codes, and every code evidence verification can give is declared on it, so
/// an app can switch over all of them.
@Suite struct APIErrorCodeTests {
    static func source(_ path: String) throws -> String {
        try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The codes `APIErrorCode.swift` declares.
    static func declared() throws -> Set<String> {
        let text = try source("Sources/StoreKeeperAPI/APIErrorCode.swift")
        return Set(
            text.matches(of: /public static let \w+ = APIErrorCode\(rawValue: "([a-z0-9_]+)"\)/).map {
                String($0.output.1)
            })
    }

    @Test func aCodeIsNotMadeFromALiteral() throws {
        #expect(!(APIErrorCode.self is any ExpressibleByStringLiteral.Type))
        #expect(try Self.declared().count > 50)
    }

    /// Every module of the server's package and of the SDK: the server, the simulator, the App Store client, the
    /// inspector and the commands name each error code through a constant, never as a literal where it is thrown.
    @Test func noModuleSpellsAnErrorCodeWhereItIsThrown() throws {
        var spelled: [String] = []
        var read = 0
        for folder in ["Server/Sources", "Sources"] {
            let root = Fixtures.repositoryRoot.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            for case let file as URL in files where file.pathExtension == "swift" {
                read += 1
                try Self.literalCodes(in: file, into: &spelled)
            }
        }
        #expect(read > 300, "the sources were read")
        #expect(spelled.isEmpty, "error codes spelled where they are thrown: \(spelled)")
    }

    /// Finds the error codes `file` spells as literals where it throws or reports them.
    static func literalCodes(in file: URL, into spelled: inout [String]) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        let literal =
            /(?:APIError(?:\.\w+)?\(|ServiceError(?:\.\w+)?\(|\.invalid\(|\.unverifiable\(|code: )\s*(?:\.\w+,\s*)?"([a-z][a-z0-9]*(?:_[a-z0-9]+)*)"/
        for match in text.matches(of: literal) {
            spelled.append("\(file.lastPathComponent): \"\(match.output.1)\"")
        }
        // A code compared as text (`failure.code == "offering_exists"`).
        for match in text.matches(of: /\.code [=!]= "([a-z][a-z0-9_]*)"/) {
            spelled.append("\(file.lastPathComponent): compared with \"\(match.output.1)\"")
        }
    }

    @Test func theOpenAPIDocumentListsExactlyTheDeclaredCodes() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let detail = schemas?["ErrorDetail"] as? [String: Any]
        let code = (detail?["properties"] as? [String: Any])?["code"] as? [String: Any]
        let listed = try #require(code?["enum"] as? [String])
        #expect(Set(listed) == (try Self.declared()))
        #expect(APIErrorCode.declared.count == listed.count, "APIErrorCode.declared lists each declaration once")
        #expect(listed == listed.sorted() && Set(listed).count == listed.count, "sorted, each once")
    }

    @Test func everyVerificationCodeIsDeclared() throws {
        let text = try Self.source("Server/Sources/AppStoreVerification/Support/VerificationError.swift")
        let codes = Set(text.matches(of: /= Code\(rawValue: "([a-z0-9_]+)"\)/).map { String($0.output.1) })
        #expect(codes.count >= 15, "the verification codes were read")
        let undeclared = codes.subtracting(try Self.declared())
        #expect(undeclared.isEmpty, "\(undeclared)")
    }

    @Test func aCodeTheClientDoesNotKnowDecodesAsItself() throws {
        let decoded = try JSONDecoder().decode(APIErrorCode.self, from: Data(#""a_future_code""#.utf8))
        #expect(decoded.rawValue == "a_future_code" && decoded != .invalidJSON)
        #expect(try JSONDecoder().decode(APIErrorCode.self, from: Data(#""rate_limited""#.utf8)) == .rateLimited)
    }
}
