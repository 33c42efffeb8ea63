import Foundation

/// The executables of this build (`portolan`, `portolan-inspector`, `contract-probe`), found next to
/// the test bundle in the build's products directory, whatever the scratch path.
public enum BuiltProduct {
    /// The path of the executable `name`, or nil when the build has none.
    public static func path(_ name: String) -> String? {
        let fileManager = FileManager.default
        for directory in candidateDirectories {
            var candidate = directory
            // On macOS the products sit in the directory above Contents/MacOS of the bundle.
            for _ in 0..<4 {
                let path = candidate.appendingPathComponent(name).path
                var isDirectory: ObjCBool = false
                if fileManager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   fileManager.isExecutableFile(atPath: path) {
                    return path
                }
                candidate.deleteLastPathComponent()
            }
        }
        return nil
    }

    /// Where the test process's own executable and bundles are.
    private static let candidateDirectories: [URL] = {
        var directories: [URL] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return directories
    }()
}
