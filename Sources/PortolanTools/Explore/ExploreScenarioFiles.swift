import PortolanLua

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `portolan explore` finds an app's scenarios when it is given none: `scenarios/*.lua`
/// beside the app, in name order.
public enum ExploreScenarioFiles {
    public static func beside(app: String) -> [String] {
        let directory = FilePaths.directory(of: app) + "/scenarios"
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".lua"), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().map { directory + "/" + $0 }
    }
}
