public import Foundation

/// The chunks of a PNG as Apple's Upload Image reads them (signature, `IHDR`, optional `tRNS`, `IDAT`, `IEND`), for
/// specs of the simulator's image checks; CRCs are left zero, which those checks do not read.
public enum PNGFixture {
    /// A PNG of `width` × `height`, color type `colorType` (2: RGB; 6: RGBA), with a `tRNS` chunk when
    /// `transparentColor`.
    public static func make(width: Int, height: Int, colorType: UInt8 = 2, transparentColor: Bool = false) -> Data {
        func word(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            word(body.count) + Array(type.utf8) + body + [0, 0, 0, 0]
        }
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", word(width) + word(height) + [8, colorType, 0, 0, 0])
        if transparentColor { bytes += chunk("tRNS", [0, 0, 0, 0, 0, 0]) }
        bytes += chunk("IDAT", [0x78, 0x9C, 0x03, 0x00]) + chunk("IEND", [])
        return Data(bytes)
    }
}
