#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scenario files a command line names: each file as given, and for a directory every `.lua`
/// file beneath it (`LuaFileTree`: sorted, hidden names skipped), so `portolan test scenarios`
/// runs a folder in the same order every time.
public enum ScenarioFiles {
    public struct Missing: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The files `paths` name, in the order given, a directory's in their sorted order.
    public static func expand(_ paths: [String]) throws(Missing) -> [String] {
        var files: [String] = []
        for path in paths {
            if isReadableFile(path) {
                files.append(path)
            } else if LuaFileTree.isDirectory(path) {
                let root = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
                let found = LuaFileTree.files(beneath: root)
                guard !found.isEmpty else {
                    throw Missing(description: "No scenario file (*.lua) under \(path)")
                }
                files += found.map { root == "/" ? "/" + $0 : root + "/" + $0 }
            } else {
                throw Missing(description: "No such scenario file: \(path)")
            }
        }
        return files
    }

    /// A regular file this process may read.
    public static func isReadableFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
    }
}
