#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the CLI writes whole (a coverage page, the editor definitions), replacing what was there.
enum WholeFile {
    struct WriteError: Error, CustomStringConvertible {
        var description: String
    }

    static func write(_ text: String, to path: String) throws(WriteError) {
        guard let file = fopen(path, "w") else {
            throw WriteError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else {
            throw WriteError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
