#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLuaShim

/// A folder the tools write a file into (a coverage page, a repro, a recording, a key), opened so
/// that a link planted on the way never redirects the write (ConfinedFolder.h,
/// `confinedfolder_openoutput`): no component of a relative path is followed through a symbolic
/// link, nor the last of an absolute one. Everything written goes beneath that descriptor.
public struct OutputFolder: ~Copyable {
    /// Why a folder could not be opened, or a file in it not written: its words, which a caller
    /// puts after the file's name ("cannot write out/page.html: …").
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    private let descriptor: CInt

    /// Opens `path` (the working directory for ""); with `creating`, its last folder is made if missing.
    public init(_ path: String, creating: Bool = false) throws(Failure) {
        let descriptor = path.withCString { confinedfolder_openoutput($0, creating ? 1 : 0) }
        guard descriptor >= 0 else {
            let code = errno
            let reason = code == ELOOP
                ? "a symbolic link on the way, and output files are never written through one"
                : String(cString: strerror(code))
            throw Failure(description: reason)
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Writes `bytes` whole as `name` (one name, no `/`) with `mode`: into a temporary file no one can
    /// guess, created beneath the folder only if nothing is there (`O_EXCL`, which never follows a
    /// link), readable by its owner alone until it is whole, flushed to the disk, then renamed over
    /// `name`. A reader never sees half of it, a failed write leaves what was there, and a link at
    /// `name` itself is replaced by the file, its own target left alone.
    public func writeWhole(_ bytes: [UInt8], named name: String, mode: mode_t) throws(Failure) {
        let (temporary, file) = try createTemporary(beside: name)
        var failed = Self.writeAll(bytes, to: file) ? 0 : errno
        // On the disk before it takes the target's name: a crash leaves the old file or the new.
        if failed == 0, fsync(file) != 0 || fchmod(file, mode) != 0 { failed = errno }
        if close(file) != 0, failed == 0 { failed = errno }
        if failed == 0, renameat(descriptor, temporary, descriptor, name) != 0 { failed = errno }
        guard failed == 0 else {
            unlinkat(descriptor, temporary, 0)
            throw Failure(description: String(cString: strerror(failed)))
        }
    }

    /// A new temporary file beside `name`: hidden, and in the same folder so that the rename stays
    /// within one file system; a random name, retried on the unlikely clash.
    private func createTemporary(beside name: String) throws(Failure) -> (name: String, descriptor: CInt) {
        for _ in 0..<16 {
            let temporary = "." + name + ".tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let file = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if file >= 0 { return (temporary, file) }
            if errno != EEXIST { break }
        }
        throw Failure(description: String(cString: strerror(errno)))
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
}
