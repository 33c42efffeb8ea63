#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLuaShim

/// A folder's files, collected the one confined way (ConfinedFolder.h) and read the way the
/// sandbox's `require` reads a module (`LuaState.chunkBytes(ofFile:beneath:)`): every command
/// that collects files from a folder goes through it, `bundle build`, `test DIR`, the scenarios
/// beside an app that `explore` reads, and the REPL's gate.
///
/// The walk follows no symbolic link and opens nothing but folders: a link named like a file it
/// collects, or leading to a folder, is refused and named, as is a FIFO, a device or a file with
/// two names, so a pull request that adds `rules/k.lua -> ../signing.key` fails the build instead
/// of shipping the key, a link loop ends, and nothing blocks. Names starting with `.` are skipped.
public struct ConfinedFolder: Sendable {
    /// Something the walk found and will not read, and why.
    public struct Refused: Sendable, Equatable, CustomStringConvertible {
        /// Relative to the folder; a folder's ends with `/`.
        public let path: String
        /// "a symbolic link on the way, …", "not a regular file", "a hard link …".
        public let reason: String

        public var description: String { "\(path): \(reason)" }
    }

    /// The folder as named, without a trailing `/`.
    public let directory: String
    /// The files to read, relative to the folder, sorted so that every run sees them in one order.
    public let files: [String]
    /// What was found and refused, sorted by path.
    public let refused: [Refused]

    /// Walks `directory` for the files whose names end with `suffix`. Throws when the folder itself
    /// cannot be walked: nothing there, not a folder, itself a symbolic link (the folders above it
    /// are the caller's and followed), or more entries than a walk lists.
    public init(_ directory: String, suffix: String = ".lua") throws(ScriptFileRefusal) {
        var listing = confinedfolder_listing()
        let outcome = directory.withCString { directory in
            suffix.withCString { confinedfolder_list(directory, $0, &listing) }
        }
        defer { confinedfolder_free(&listing) }
        guard outcome == CInt(CONFINEDFILE_OK) else {
            throw ScriptFileRefusal(outcome)
        }
        var files: [String] = [], refused: [Refused] = []
        for entry in UnsafeBufferPointer(start: listing.entries, count: listing.count) {
            let path = entry.path.map { String(cString: $0) } ?? ""
            if entry.outcome == CInt(CONFINEDFILE_OK) {
                files.append(path)
            } else {
                refused.append(Refused(path: path, reason: String(cString: confinedfile_reason(entry.outcome))))
            }
        }
        var trimmed = directory
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.directory = trimmed
        self.files = files.sorted()
        self.refused = refused.sorted { $0.path < $1.path }
    }

    /// The path of `file` (one of `files`) as a person would type it: the folder's path and its own.
    public func path(of file: String) -> String {
        directory == "/" ? "/" + file : directory + "/" + file
    }

    /// The text of `file` (relative to the folder), read beneath it and judged again by what was
    /// opened: a link or FIFO that took a listed file's place since the walk is refused too.
    public func bytes(of file: String) throws(ScriptFileRefusal) -> [UInt8] {
        try LuaState.chunkBytes(ofFile: file, beneath: directory)
    }
}
