#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system questions the host asks without pulling in Foundation.
enum FileCheck {
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
