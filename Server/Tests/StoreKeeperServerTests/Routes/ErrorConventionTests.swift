import Foundation
import Hummingbird
import StoreKeeperAPI
import TestSupport
import Testing

@testable import StoreKeeperServer

/// One error convention: services, rules and checks throw ``ServiceError`` (a kind, a typed code, a message); only
/// the HTTP layer — the route files, the `Routes/` and `HTTP/` folders — speaks in statuses (`APIError`), and the
/// kind-to-status rule is decided once, in `APIError.init(_:)`.
@Suite struct ErrorConventionTests {
    /// Whether `file` belongs to the HTTP layer.
    static func isHTTPLayer(_ file: URL) -> Bool {
        let folder = file.deletingLastPathComponent().lastPathComponent
        return folder == "Routes" || folder == "HTTP" || file.lastPathComponent.contains("Routes")
            || file.lastPathComponent == "APIError.swift"
    }

    @Test func noServiceMakesAnHTTPError() throws {
        let root = Fixtures.packageRoot.appendingPathComponent("Sources/StoreKeeperServer")
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var speaking: [String] = []
        var read = 0
        for case let file as URL in files where file.pathExtension == "swift" && !Self.isHTTPLayer(file) {
            read += 1
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: /\bAPIError(?:\.\w+)?\(|throws\(APIError\)|as\?? APIError\b/) {
                speaking.append("\(file.lastPathComponent): \(match.output)")
            }
        }
        #expect(read > 100, "the module's files were read")
        #expect(speaking.isEmpty, "HTTP errors made outside the HTTP layer: \(speaking)")
    }

    @Test func eachKindAnswersOneStatus() {
        let statuses: [(ServiceError.Kind, HTTPResponse.Status)] = [
            (.invalidInput, .badRequest), (.unknownApp, .forbidden), (.unverifiable, .unprocessableContent),
            (.unauthenticated, .unauthorized), (.forbidden, .forbidden), (.missingConfiguration, .conflict),
            (.notFound, .notFound), (.conflict, .conflict), (.rateLimited, .tooManyRequests),
            (.appleRefused, .badGateway), (.appleUnavailable, .badGateway), (.appleTimeout, .gatewayTimeout),
            (.appleRateLimited, .serviceUnavailable),
        ]
        for (kind, status) in statuses {
            let answer = APIError(ServiceError(kind, .experimentState, "m"))
            #expect(answer.status == status, "\(kind)")
            #expect(answer.code == .experimentState && answer.message == "m")
        }
    }

    @Test func aWaitTravelsToTheAnswer() {
        var refusal = ServiceError(.rateLimited, .rateLimited, "too often")
        refusal.retryAfter = 60
        #expect(APIError(refusal).retryAfter == 60)
        #expect(APIError(ServiceError.invalid(.invalidParameter, "x")).retryAfter == nil)
    }
}
