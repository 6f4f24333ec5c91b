public import Foundation

extension Data {
    /// Writes the bytes to `url` readable by their owner only (mode 0600), as a configuration file that holds
    /// secrets must be for `storekeeper serve` to accept it.
    public func writePrivately(to url: URL) throws {
        try write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}

extension String {
    /// Writes the text as UTF-8 to `url` readable by its owner only (mode 0600).
    public func writePrivately(to url: URL) throws {
        try Data(utf8).writePrivately(to: url)
    }
}
