#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PortolanLua

/// A bundle's files written beneath a fresh private directory (mkdtemp, mode 0700), so that the
/// sandboxed host, the linter and the scenario runner read them as they read any app. Paths were
/// checked by the reader (relative names, none starting with `.`), and each file is created new
/// (`O_EXCL`, no link followed). `remove()` deletes it all.
package struct BundleUnpacking {
    let root: String

    /// Unpacks into a fresh temporary directory, or into `directory` (made afresh: whatever was
    /// there is removed first), whose parent exists.
    package init(_ bundle: RulesBundle, into directory: String? = nil) throws(BundleError) {
        if let directory {
            root = directory
            removeTree(directory)
            guard mkdir(directory, 0o700) == 0 else { throw .invalidManifest("cannot make \(directory) to unpack the bundle in") }
        } else {
            let temporary = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
            var template = Array((temporary + "/portolan-bundle-XXXXXX").utf8CString)
            guard mkdtemp(&template) != nil else { throw .tooLarge("no temporary directory to check the bundle in") }
            root = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        for entry in bundle.manifest.files {
            guard store(bundle.files[entry.path] ?? [], to: entry.path) else {
                remove()
                throw .invalidManifest("\(entry.path) cannot be unpacked")
            }
        }
    }

    func path(_ relative: String) -> String { root + "/" + relative }

    /// `text` with the unpacked directory's paths written as the bundle's own (`app.lua:3: …`),
    /// also where Lua shortened a long one from the front, keeping its end after `...`
    /// (`...rules/com.example.rules@3/app.lua:3: …`).
    func relative(_ text: String) -> String {
        let prefix = root + "/"
        let whole = text.split(separator: prefix, omittingEmptySubsequences: false).joined()
        var result = "", rest = Substring(whole)
        while let dots = rest.firstRange(of: "...") {
            result += rest[..<dots.lowerBound]
            let after = rest[dots.upperBound...]
            // The longest start of what follows that ends the prefix: the part of it Lua kept.
            let kept = stride(from: min(prefix.count, after.count), through: 2, by: -1).first { prefix.hasSuffix(after.prefix($0)) }
            if let kept {
                rest = after.dropFirst(kept)
            } else {
                result += "..."
                rest = after
            }
        }
        return result + rest
    }

    package func remove() {
        removeTree(root)
    }

    /// Removes what the unpacking made: its files and folders, no link followed (`unlink` of a
    /// link removes the link). Only this struct writes beneath `root`.
    private func removeTree(_ path: String) {
        if unlink(path) == 0 { return }
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                if name != "." && name != ".." { removeTree(path + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(path)
    }

    private func store(_ bytes: [UInt8], to relative: String) -> Bool {
        // Each folder on the way, made private; one made before (by an earlier file) is fine.
        var folder = root
        for part in relative.split(separator: "/").dropLast() {
            folder += "/" + part
            guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { return false }
        }
        let descriptor = open(path(relative), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}
