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

    /// `path` as it is when it exists from the working directory (or is absolute), else inside
    /// `directory` when it exists there, else unchanged.
    package static func resolve(_ path: String, in directory: String?) -> String {
        guard !path.hasPrefix("/"), !exists(path), let directory else { return path }
        let candidate = directory + "/" + path
        return exists(candidate) ? candidate : path
    }
}
