import Foundation

/// A directory of files, removed when the test ends.
public final class TemporaryDirectory {
    public let root: String

    public init(files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("portolan-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for (name, text) in files { try write(name, text) }
    }

    public func path(_ name: String) -> String { root + "/" + name }

    public func write(_ name: String, _ text: String) throws {
        try text.write(toFile: path(name), atomically: false, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }
}
