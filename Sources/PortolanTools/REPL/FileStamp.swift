#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a file was when last seen: enough to notice an edit.
struct FileStamp: Equatable, Sendable {
    var seconds: Int
    var nanoseconds: Int
    var size: Int
    var exists: Bool

    init(_ path: String) {
        var status = stat()
        if stat(path, &status) == 0 {
            #if canImport(Darwin)
            seconds = Int(status.st_mtimespec.tv_sec)
            nanoseconds = Int(status.st_mtimespec.tv_nsec)
            #else
            seconds = Int(status.st_mtim.tv_sec)
            nanoseconds = Int(status.st_mtim.tv_nsec)
            #endif
            size = Int(status.st_size)
            exists = true
        } else {
            seconds = 0
            nanoseconds = 0
            size = 0
            exists = false
        }
    }
}
