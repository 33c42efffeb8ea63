#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Lua

/// A file the tools write whole (a recording, a drawing, a coverage page, a repro, the editor
/// definitions, a key): through `OutputFolder`, so that no link planted in the folder's path
/// redirects it, and through a temporary file no one can guess, renamed over the target, so that a
/// reader never sees half of it and a failed write leaves what was there.
public enum WholeFile {
    public struct WriteError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The mode of a written file, set once it is whole: what `fopen` would give under the usual umask.
    public static let mode: mode_t = 0o644

    public static func write(_ text: String, to path: String) throws(WriteError) {
        try write(bytes: Array(text.utf8), to: path)
    }

    /// Writes `bytes` whole with `fileMode` (a private key's file is 0600: its temporary file was so
    /// from the start, so it is never readable by others, even for a moment).
    public static func write(bytes: [UInt8], to path: String, fileMode: mode_t = mode) throws(WriteError) {
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folderPath = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != ".." else {
            throw WriteError(description: "cannot write \(path): it names a folder, not a file")
        }
        do {
            let folder = try OutputFolder(folderPath)
            try folder.writeWhole(bytes, named: name, mode: fileMode)
        } catch {
            throw WriteError(description: "cannot write \(path): \(error.description)")
        }
    }
}
