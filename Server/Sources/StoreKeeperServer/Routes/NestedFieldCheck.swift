import AppStoreVerification
import Foundation
import StoreKeeperAPI

/// Every field of a request body, at any depth, must be one its type reads. A nested object has no field list of
/// its own to check against, so the body as decoded is encoded again, and each field sent is looked for at the
/// same place in that echo. A field sent that the echo lacks was read by nothing: a typo, or a newer client's field
/// this server would silently drop. A field sent as `null` may be absent from the echo (an optional left out).
/// Free-form maps (attributes, metadata) are echoed whole, so their keys always pass.
enum NestedFieldCheck {
    /// A body as parsed, strictly (duplicate keys refused).
    typealias Tree = AppStoreVerification.JSONValue

    /// The path of the first field of `sent` that `echo` lacks (`packages[0].colour`), or `nil`.
    static func unknownPath(in sent: Tree, echo: Tree, path: String = "") -> String? {
        switch (sent, echo) {
        case (.object(let members), .object(let echoed)):
            let known = Dictionary(echoed, uniquingKeysWith: { first, _ in first })
            for (key, value) in members {
                let child = path.isEmpty ? key : "\(path).\(key)"
                guard let counterpart = known[key] else {
                    if value == .null { continue }
                    return child
                }
                if let unknown = unknownPath(in: value, echo: counterpart, path: child) { return unknown }
            }
            return nil
        case (.array(let elements), .array(let echoed)) where elements.count == echoed.count:
            for (index, (element, counterpart)) in zip(elements, echoed).enumerated() {
                if let unknown = unknownPath(in: element, echo: counterpart, path: "\(path)[\(index)]") {
                    return unknown
                }
            }
            return nil
        default:
            // A scalar, or a value the type writes in another shape than it reads: nothing to compare.
            return nil
        }
    }

    /// Refuses `body`, decoded from `sent`, when `sent` holds a field at any depth that `body` does not read.
    /// - Throws: `unknown_field` naming the field's path.
    static func check(_ sent: Tree, decoded body: some Encodable, encoder: JSONEncoder) throws {
        guard let echoed = try? Tree.parse(encoder.encode(body)),
            let path = unknownPath(in: sent, echo: echoed)
        else { return }
        throw APIError.badRequest(.unknownField, "unknown field \"\(path.prefix(200))\"")
    }
}
