import Foundation

/// Why a file named on the command line cannot be read, in a few words.
enum FileProblem {
    static func describe(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
        if isDirectory.boolValue { return "it is a folder" }
        return FileManager.default.isReadableFile(atPath: path) ? "it cannot be read" : "permission denied"
    }
}
