#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the tools write whole (a recording, a drawing, a coverage page, the editor definitions):
/// written to a temporary file beside it, then renamed over it, so that a reader never sees half
/// of it and a failed write leaves what was there.
///
/// The temporary file is made by `mkstemp`: a name no one can guess, created only if nothing is
/// there (`O_EXCL`, which never follows a symbolic link), readable by its owner alone until it is
/// whole. A link planted beside the target, under any name, is never written through; a link
/// planted at the target itself is replaced by the file, its own target left alone.
public enum WholeFile {
    public struct WriteError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The mode of a written file, set once it is whole: what `fopen` would give under the usual umask.
    public static let mode: mode_t = 0o644

    public static func write(_ text: String, to path: String) throws(WriteError) {
        try write(bytes: Array(text.utf8), to: path)
    }

    /// Writes `bytes` whole with `fileMode` (a private key's file is 0600: mkstemp made it so from
    /// the start, so it is never readable by others, even for a moment).
    public static func write(bytes: [UInt8], to path: String, fileMode: mode_t = mode) throws(WriteError) {
        // Hidden and beside the target, so that the rename stays within one file system.
        var template = Array((directory(of: path) + "." + baseName(of: path) + ".tmp-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { throw failure(path) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failed = writeAll(bytes, to: descriptor) ? 0 : errno
        // On the disk before it takes the target's name: a crash leaves the old file or the new.
        if failed == 0, fsync(descriptor) != 0 || fchmod(descriptor, fileMode) != 0 { failed = errno }
        if close(descriptor) != 0, failed == 0 { failed = errno }
        if failed == 0, rename(temporary, path) != 0 { failed = errno }
        guard failed == 0 else {
            unlink(temporary)
            throw failure(path, errno: failed)
        }
    }

    /// Every byte, retried on a short write or EINTR; false with `errno` set when one fails.
    private static func writeAll(_ bytes: [UInt8], to descriptor: CInt) -> Bool {
        bytes.withUnsafeBytes { buffer in
            guard var next = buffer.baseAddress else { return true }
            var left = buffer.count
            while left > 0 {
                let count = systemWrite(descriptor, next, left)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    if count == 0 { errno = EIO }
                    return false
                }
                next += count
                left -= count
            }
            return true
        }
    }

    /// The directory part of `path`, with its slash: `""` for a bare name.
    private static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[...slash])
    }

    private static func baseName(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    private static func failure(_ path: String, errno code: CInt = errno) -> WriteError {
        WriteError(description: "cannot write \(path): \(String(cString: strerror(code)))")
    }
}

/// write(2), named apart from `WholeFile.write`.
#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
