public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files only their owner may read, whatever the process's umask: the data folder (0700), the database files and
/// every private key (0600). One place decides the modes, for the server, the simulator and the CLI.
public enum PrivateFiles {
    /// The mode of a private folder.
    public static let directoryMode: mode_t = 0o700
    /// The mode of a private file.
    public static let fileMode: mode_t = 0o600

    /// Creates `path` and any missing parent as private folders (0700); an existing folder is left as it is.
    /// - Parameter path: The folder.
    /// - Throws: ``PrivateFileError`` naming the folder.
    public static func createDirectory(_ path: String) throws(PrivateFileError) {
        guard !path.isEmpty, !FileManager.default.fileExists(atPath: path) else { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try createDirectory(parent) }
        if mkdir(path, directoryMode) != 0, errno != EEXIST {
            throw PrivateFileError(path: path, reason: "cannot create the folder: \(String(cString: strerror(errno)))")
        }
        // mkdir applies the umask; the mode is set again without it.
        chmod(path, directoryMode)
    }

    /// Makes `path` the owner's alone (0600), creating it empty when `creating` and missing.
    /// - Parameters:
    ///   - path: The file.
    ///   - creating: Whether to create a missing file.
    /// - Throws: ``PrivateFileError`` naming the file.
    public static func restrict(_ path: String, creating: Bool) throws(PrivateFileError) {
        if creating, !FileManager.default.fileExists(atPath: path) {
            let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, fileMode)
            guard descriptor >= 0 else {
                throw PrivateFileError(
                    path: path, reason: "cannot create the file: \(String(cString: strerror(errno)))")
            }
            close(descriptor)
        }
        guard chmod(path, fileMode) == 0 else {
            throw PrivateFileError(path: path, reason: "cannot set mode 0600: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `data` to `path` as a private file (0600 from the moment it exists), replacing it atomically.
    /// - Parameters:
    ///   - data: The contents.
    ///   - path: The file.
    /// - Throws: ``PrivateFileError`` naming the file.
    public static func write(_ data: Data, to path: String) throws(PrivateFileError) {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else {
            throw PrivateFileError(path: path, reason: "cannot create the file: \(String(cString: strerror(errno)))")
        }
        fchmod(descriptor, fileMode)
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let written = (try? handle.write(contentsOf: data)) != nil && (try? handle.synchronize()) != nil
        try? handle.close()
        guard written, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw PrivateFileError(path: path, reason: "cannot write the file: \(String(cString: strerror(errno)))")
        }
    }

    /// Refuses a private key file that its group or others may read or write.
    /// - Parameter path: The key file.
    /// - Throws: ``PrivateFileError`` naming the file, its mode and the fix.
    public static func requirePrivate(_ path: String) throws(PrivateFileError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw PrivateFileError(path: path, reason: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw PrivateFileError(
                path: path,
                reason: "is a private key readable by others (mode 0\(String(mode, radix: 8))); run chmod 600 \(path)")
        }
    }

    /// The permission bits of `path` (e.g. `0o600`), or `nil` when it does not exist.
    public static func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o777
    }
}

/// A private file or folder that could not be made, written or trusted.
public struct PrivateFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file or folder.
    public var path: String
    /// What is wrong.
    public var reason: String

    /// Makes an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}

/// An exclusive lock on a file, held until ``release()`` (or the process ends): one process at a time.
/// The holder's pid is written into the file, so a refused process can name it.
public final class ExclusiveFileLock: Sendable {
    let descriptor: Int32

    /// Takes the lock on `path` (created 0600 if missing), or fails at once when another holds it.
    /// - Parameter path: The lock file.
    /// - Throws: ``PrivateFileError`` whose reason names the holder's pid when another process holds it.
    public init(path: String) throws(PrivateFileError) {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, PrivateFiles.fileMode)
        guard descriptor >= 0 else {
            throw PrivateFileError(path: path, reason: "cannot open the lock file: \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = read(descriptor, &buffer, buffer.count)
            close(descriptor)
            let holder =
                count > 0
                ? String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                : "?"
            throw PrivateFileError(path: path, reason: "held by another process (pid \(holder))")
        }
        ftruncate(descriptor, 0)
        let pid = Array("\(getpid())\n".utf8)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = descriptor
    }

    /// Releases the lock.
    public func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
