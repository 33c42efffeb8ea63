#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The C library's read(2) and write(2) under names of their own, for code inside a type whose own
// `read` or `write` methods a bare call would mean. Qualifying the call instead names the C module,
// which is Glibc on Linux and Darwin on Apple platforms: defined once here, for every target.

/// read(2).
package func systemRead(_ descriptor: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// write(2).
package func systemWrite(_ descriptor: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
