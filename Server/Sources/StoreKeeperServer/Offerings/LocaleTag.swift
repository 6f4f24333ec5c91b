import Foundation

/// A language tag as a rule names it and a request sends it (`de`, `pt-BR`, `zh-Hant-TW`): letters and digits in
/// parts of 1–8, joined by `-` (an `_` a device may send is read as `-`).
enum LocaleTag {
    /// Whether `tag` is one.
    static func isWellFormed(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        return !tag.isEmpty && tag.count <= 35
            && parts.allSatisfy {
                (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            }
    }

    /// The first tag of an `Accept-Language` header (`pt-BR,pt;q=0.9` → `pt-BR`), if it is well formed.
    static func first(ofAcceptLanguage header: String?) -> String? {
        guard let header else { return nil }
        let first = header.split(separator: ",").first.map {
            $0.split(separator: ";").first.map { String($0) } ?? ""
        }?.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-")
        return first.flatMap { isWellFormed($0) ? $0 : nil }
    }

    /// Whether a rule's `wanted` tag matches the customer's `tag`: the same tag, or `wanted` is its language (`pt`
    /// matches `pt-BR`), compared without case.
    static func matches(_ wanted: String, _ tag: String) -> Bool {
        let wanted = wanted.lowercased()
        let tag = tag.lowercased()
        return tag == wanted || tag.hasPrefix(wanted + "-")
    }
}
