import Foundation

/// What Apple's Upload Image checks of a picture, read from its PNG chunks: its dimensions and whether it can be
/// transparent (an alpha channel, or a `tRNS` chunk). Pixels are not decoded.
struct PNGHeader: Sendable, Hashable {
    /// Width in pixels.
    var width: Int
    /// Height in pixels.
    var height: Int
    /// Whether any pixel can be transparent.
    var hasTransparency: Bool

    /// The header of `data`, or `nil` when it is not a whole PNG (signature, then chunks up to `IEND`, each
    /// inside the data).
    init?(_ data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= 33, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            return nil
        }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 8
        var header: (width: Int, height: Int, alpha: Bool)?
        var transparency = false
        var ended = false
        while offset + 12 <= bytes.count, !ended {
            let length = word(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard length <= bytes.count - offset - 12 else { return nil }
            if offset == 8 {
                guard type == "IHDR", length == 13 else { return nil }
                header = (word(offset + 8), word(offset + 12), [4, 6].contains(bytes[offset + 17]))
            }
            if type == "tRNS" { transparency = true }
            ended = type == "IEND"
            offset += 12 + length
        }
        guard ended, let header, header.width > 0, header.height > 0 else { return nil }
        width = header.width
        height = header.height
        hasTransparency = header.alpha || transparency
    }
}
