import Foundation
import Lua
import Testing
import TestSupport

/// Issue 33, item 1: the one confined way to collect a folder's files (ConfinedFolder.c), which
/// `bundle build`, `test DIR`, `explore` and the REPL's gate share, and the one way a file named
/// on the command line is read (`chunkBytes(contentsOfFile:)`). Each class of trap the attack
/// used, not only its example: links to files and to folders, inside and outside, loops, FIFOs,
/// devices, hard links, depth; and each is named, never read, entered or waited on.
@Suite struct ConfinedFolderTests {
    static let secret = "SIGNING-KEY-s3cr3t"

    /// A checkout: `signing.key` and `.env` beside `rules/`, whose files are a mix of what is read
    /// and what is refused.
    static func checkout() throws -> (TemporaryDirectory, rules: String) {
        let root = try TemporaryDirectory("folder", files: [
            "signing.key": secret, ".env": "TOKEN=\(secret)\n", "outside/stolen.lua": "return '\(secret)'",
            "rules/app.lua": "return 1", "rules/screens/list.lua": "return 2", "rules/README.md": "words",
            "rules/.hidden.lua": "return 'hidden'", "rules/.git/config.lua": "return 'git'",
        ])
        let rules = root.path("rules")
        let links = [
            "k.lua": "../signing.key", "env.lua": "/proc/self/environ", "screens/inner.lua": "list.lua",
            "up": "..", "loop": "loop", "self": ".", "away": "../outside", "dangling.lua": "nowhere.lua",
            "notes.md": "README.md",
        ]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(atPath: rules + "/" + name, withDestinationPath: target)
        }
        #expect(mkfifo(rules + "/pipe.lua", 0o644) == 0)
        #expect(link(root.path("signing.key"), rules + "/hard.lua") == 0)
        return (root, rules)
    }

    @Test func aWalkListsTheFilesAndNamesEveryTrapWithoutFollowingOne() throws {
        let (root, rules) = try Self.checkout()
        defer { root.remove() }
        let folder = try ConfinedFolder(rules)
        #expect(folder.files == ["app.lua", "screens/list.lua"])
        let refused = Dictionary(uniqueKeysWithValues: folder.refused.map { ($0.path, $0.reason) })
        #expect(Set(refused.keys) == ["k.lua", "env.lua", "screens/inner.lua", "up/", "self/", "away/", "dangling.lua", "pipe.lua", "hard.lua"])
        for name in ["k.lua", "env.lua", "screens/inner.lua", "up/", "self/", "away/", "dangling.lua"] {
            #expect(refused[name]?.hasPrefix("a symbolic link") == true, "\(name): \(refused[name] ?? "")")
        }
        #expect(refused["pipe.lua"] == "not a regular file")
        #expect(refused["hard.lua"]?.hasPrefix("a hard link") == true)
        // A link loop is only looked at: not a folder, not named like a script, so not listed.
        #expect(refused["loop"] == nil)
    }

    @Test func theFolderItselfMustBeOne() throws {
        let (root, rules) = try Self.checkout()
        defer { root.remove() }
        try FileManager.default.createSymbolicLink(atPath: root.path("linked"), withDestinationPath: "rules")
        for named in [root.path("linked"), root.path("linked/"), root.path("linked//")] {
            let refusal = #expect(throws: ScriptFileRefusal.self) { try ConfinedFolder(named) }
            #expect(refusal?.reason.hasPrefix("a symbolic link") == true, "\(named): \(String(describing: refusal))")
        }
        #expect((#expect(throws: ScriptFileRefusal.self) { try ConfinedFolder(rules + "/app.lua") })?.isNotFolder == true)
        #expect((#expect(throws: ScriptFileRefusal.self) { try ConfinedFolder(root.path("none")) })?.isMissing == true)
        #expect(try ConfinedFolder(rules + "/").directory == rules)
        // The folders above the one named are the caller's: followed.
        #expect(try ConfinedFolder(root.path("linked/screens")).files == ["list.lua"])
    }

    @Test func aFolderPastTheDepthLimitIsNamedNotDropped() throws {
        let root = try TemporaryDirectory("folder")
        defer { root.remove() }
        let deep = (1...9).map { "d\($0)" }.joined(separator: "/")
        try root.write("eight/" + (1...8).map { "d\($0)" }.joined(separator: "/") + "/last.lua", "return 8")
        try root.write("nine/" + deep + "/x.lua", "return 9")
        #expect(try ConfinedFolder(root.path("eight")).files == [(1...8).map { "d\($0)" }.joined(separator: "/") + "/last.lua"])
        let nine = try ConfinedFolder(root.path("nine"))
        #expect(nine.files == [])
        #expect(nine.refused.map(\.path) == [(1...9).map { "d\($0)" }.joined(separator: "/") + "/"])
        #expect(nine.refused.first?.reason.hasPrefix("deeper than 8 folders") == true)
    }

    @Test func aListedFileSwappedForALinkOrAFIFOIsRefusedWhenRead() throws {
        let (root, rules) = try Self.checkout()
        defer { root.remove() }
        let folder = try ConfinedFolder(rules)
        #expect(String(decoding: try folder.bytes(of: "app.lua"), as: UTF8.self) == "return 1")
        try FileManager.default.removeItem(atPath: rules + "/app.lua")
        try FileManager.default.createSymbolicLink(atPath: rules + "/app.lua", withDestinationPath: "../signing.key")
        try FileManager.default.removeItem(atPath: rules + "/screens/list.lua")
        #expect(mkfifo(rules + "/screens/list.lua", 0o644) == 0)
        let link = #expect(throws: ScriptFileRefusal.self) { try folder.bytes(of: "app.lua") }
        #expect(link?.reason.hasPrefix("a symbolic link") == true)
        let pipe = #expect(throws: ScriptFileRefusal.self) { try folder.bytes(of: "screens/list.lua") }
        #expect(pipe?.reason == "not a regular file")
    }

    /// A file named on the command line (an app file, a bundle, a key): its folders are taken as
    /// named, but the file itself is never a link, a FIFO, a device or a second name.
    @Test func aNamedFileIsReadOnlyWhenItIsARegularFileWithOneName() throws {
        let (root, rules) = try Self.checkout()
        defer { root.remove() }
        #expect(try LuaState.chunkBytes(contentsOfFile: rules + "/app.lua") == Array("return 1".utf8))
        try FileManager.default.createSymbolicLink(atPath: root.path("linked"), withDestinationPath: "rules")
        #expect(try LuaState.chunkBytes(contentsOfFile: root.path("linked/app.lua")) == Array("return 1".utf8))
        let cases = ["k.lua": "a symbolic link", "dangling.lua": "a symbolic link", "pipe.lua": "not a regular file",
                     "hard.lua": "a hard link", "up": "a symbolic link", "loop": "a symbolic link"]
        for (name, reason) in cases {
            let error = #expect(throws: LuaError.self) { try LuaState.chunkBytes(contentsOfFile: rules + "/" + name) }
            #expect(error?.message.hasPrefix("cannot read \(rules)/\(name): \(reason)") == true, "\(name): \(String(describing: error))")
            #expect(error?.message.contains(Self.secret) == false)
        }
        let device = #expect(throws: LuaError.self) { try LuaState.chunkBytes(contentsOfFile: "/dev/zero") }
        #expect(device?.message == "cannot read /dev/zero: not a regular file")
    }
}
