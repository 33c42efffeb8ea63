import Testing
@testable import Lua

/// Which Lua release runs: the linked library's identity string, against the header the shim was built with.
@Suite struct LuaReleaseTests {
    @Test func theLinkedReleaseIsAFullReleaseOfTheVersionLuaReports() throws {
        let version = try LuaState().run("return _VERSION")   // "Lua 5.4": major and minor only
        try #require(version.count == 1)
        let prefix = try #require(version[0].stringValue) + "."
        for release in [LuaState.release, LuaState.compiledRelease] {
            #expect(release.hasPrefix(prefix), "\(release)")
            let number = release.dropFirst(prefix.count)
            #expect(!number.isEmpty && number.allSatisfy { $0.isNumber }, "\(release)")
        }
    }

    @Test func theReleaseIsReadFromTheIdentityString() {
        let identity = "$LuaVersion: Lua 5.4.6  Copyright (C) 1994-2023 Lua.org, PUC-Rio $$LuaAuthors: R. I. $"
        #expect(LuaState.linkedRelease(identity: identity) == "Lua 5.4.6")
        #expect(LuaState.linkedRelease(identity: "$LuaVersion: Lua 5.4 $") == "Lua 5.4")
    }

    @Test func anIdentityOfAnotherFormGivesNothing() {
        for identity in ["", "Lua 5.4.6", "$LuaVersion: LuaJIT 2.1", "$LuaVersion: Lua 5..4", "$LuaVersion: Lua x.y",
                         "$LuaVersion: Lua", "$LuaVersion: Lua 5"] {
            #expect(LuaState.linkedRelease(identity: identity) == nil, "\(identity)")
        }
    }

    @Test func aLibraryOtherThanTheHeadersIsDescribedWithBoth() {
        #expect(LuaState.describe(release: "Lua 5.4.4", compiledRelease: "Lua 5.4.4") == "Lua 5.4.4")
        #expect(LuaState.describe(release: "Lua 5.4.6", compiledRelease: "Lua 5.4.4")
            == "Lua 5.4.6, built against Lua 5.4.4")
        #expect(LuaState.releaseDescription.hasPrefix(LuaState.release))
    }
}
