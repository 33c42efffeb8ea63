#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `.lua` files beneath a directory, the one listing that a bundle's sources
/// (`portolan bundle build DIR`) and a directory of scenarios (`portolan test DIR`) share: paths
/// relative to the directory, sorted, so that every run sees them in the same order; names
/// starting with `.` are skipped, and so is anything deeper than `maximumDepth` folders.
enum LuaFileTree {
    /// Folders below the directory that are still listed (a bundle's paths go no deeper).
    static let maximumDepth = 8

    static func files(beneath root: String) -> [String] {
        files(beneath: root, prefix: "", depth: 1).sorted()
    }

    /// Whether `path` names a folder: what lists is one (`fileExists(atPath:isDirectory:)` differs
    /// between Foundations).
    static func isDirectory(_ path: String) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil
    }

    private static func files(beneath root: String, prefix: String, depth: Int) -> [String] {
        guard depth <= maximumDepth, let names = try? FileManager.default.contentsOfDirectory(atPath: root + "/" + prefix) else {
            return []
        }
        var paths: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = prefix + name
            if isDirectory(root + "/" + path) {
                paths += files(beneath: root, prefix: path + "/", depth: depth + 1)
            } else if name.hasSuffix(".lua") {
                paths.append(path)
            }
        }
        return paths
    }
}
