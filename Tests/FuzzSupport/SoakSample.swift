/// The soak's memory at one moment: each app's Lua heap after a full collection, and the
/// process's resident set.
public struct SoakSample: Sendable {
    public let routes: Int
    /// Bytes each host's Lua state holds, in the order of `SoakRunner.appNames`.
    public let luaBytes: [Int]
    public let residentBytes: Int

    public var totalLuaBytes: Int { luaBytes.reduce(0, +) }

    /// The header of `row`'s table.
    public static func header(_ appNames: [String]) -> String {
        (["routes".padded(12)] + appNames.map { "\($0) Lua KiB".padded(18) } + ["Lua KiB".padded(12), "RSS MiB"])
            .joined(separator: " ")
    }

    /// `   1000000   …`: one line of the table the soak prints.
    public var row: String {
        let kib = luaBytes.map { String(format1: Double($0) / 1024).padded(18) }
        return ([String(routes).padded(12)] + kib + [String(format1: Double(totalLuaBytes) / 1024).padded(12),
                                                        String(format1: Double(residentBytes) / 1_048_576)])
            .joined(separator: " ")
    }
}

extension String {
    /// The text left-aligned in `width` columns.
    fileprivate func padded(_ width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }

    /// A number with one decimal.
    init(format1 value: Double) {
        self = "\((value * 10).rounded() / 10)"
    }
}
