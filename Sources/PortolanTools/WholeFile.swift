#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the tools write whole (a recording, a drawing, a coverage page, the editor definitions):
/// written to a temporary file beside it, then renamed over it, so that a reader never sees half
/// of it and a failed write leaves what was there.
public enum WholeFile {
    public struct WriteError: Error, CustomStringConvertible {
        public var description: String
    }

    public static func write(_ text: String, to path: String) throws(WriteError) {
        let temporary = path + ".tmp-\(getpid())"
        guard let file = fopen(temporary, "w") else {
            throw WriteError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        guard written == bytes.count, closed == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(description: "cannot write \(path): \(reason)")
        }
    }
}
