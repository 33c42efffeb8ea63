#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system questions the host and its tools ask, without pulling in Foundation: the one
/// definition of "the directory of a path".
package enum FilePaths {
    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The directory a path names its file in: `.` for a bare file name, `/` for a file at the root.
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The path with symbolic links, `.` and `..` resolved, or nil when there is no such file.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
