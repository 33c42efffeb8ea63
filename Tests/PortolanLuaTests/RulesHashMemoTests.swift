@testable import PortolanLua
import TestSupport
import Testing

/// `RulesHash` keeps the last files it hashed and their hash, for the fresh hosts of a test run
/// that declare the same app: a file changed in one byte, its size the same, is hashed again.
@Suite struct RulesHashMemoTests {
    @Test func aFileChangedInOneByteHashesAnew() throws {
        let directory = try TemporaryDirectory("rules-hash-memo", files: ["app.lua": "local a = 1\n"])
        defer { directory.remove() }
        let file = directory.path("app.lua")
        let first = RulesHash.of(files: [file])
        #expect(RulesHash.of(files: [file]) == first)
        try directory.write("app.lua", "local a = 2\n")
        let changed = RulesHash.of(files: [file])
        #expect(changed != first)
        try directory.write("app.lua", "local a = 1\n")
        #expect(RulesHash.of(files: [file]) == first)
        #expect(RulesHash.of(files: [file, file]) != first, "two files are not one")
    }
}
