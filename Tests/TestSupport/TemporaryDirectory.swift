import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh directory for one test, under the system's temporary directory (`TMPDIR`, else `/tmp`),
/// named `portolan-<prefix>-XXXXXX` (mkdtemp's six characters: short, so Lua quotes a path in it
/// whole, and never shared). Every test that needs a file on disk makes it here, and
/// removes it when it ends, so that no run leaves anything behind:
///
///     let directory = try TemporaryDirectory(files: ["app.lua": app])
///     defer { directory.remove() }
///
/// `remove()` is what the test calls: an object's `deinit` may run as soon as its last use, before
/// a path taken from it is done with. `deinit` removes the directory too, for an owner that keeps
/// the directory as long as itself (a fuzzer's working directory).
public final class TemporaryDirectory: @unchecked Sendable {
    /// Its absolute path.
    public let root: String

    /// Makes the directory and writes `files` in it (names relative to it; their folders are made).
    public init(_ prefix: String = "test", files: [String: String] = [:]) throws {
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("portolan-\(prefix)-XXXXXX").path.utf8CString)
        guard mkdtemp(&template) != nil else {
            throw TestFailure("cannot make a temporary directory: \(String(cString: strerror(errno)))")
        }
        root = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for (name, text) in files { try write(name, text) }
    }

    /// The absolute path of `name` in the directory.
    public func path(_ name: String) -> String { root + "/" + name }

    /// Writes `text` to `name` in the directory, making its folders first; the file's path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let file = path(name)
        let folder = (file as NSString).deletingLastPathComponent
        if folder != root { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    /// Removes the directory and everything in it. Calling it again does nothing.
    public func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    deinit {
        remove()
    }
}
