import Foundation
import Testing
import TestSupport

/// The one helper through which tests make files on disk: a run leaves nothing behind in `/tmp`.
@Suite struct TemporaryDirectoryTests {
    @Test func itHoldsItsFilesAndRemoveTakesEverythingAway() throws {
        let directory = try TemporaryDirectory("house", files: ["app.lua": "return 1", "screens/list.lua": "return 2"])
        defer { directory.remove() }
        let url = URL(fileURLWithPath: directory.root)
        #expect(url.deletingLastPathComponent().standardized == FileManager.default.temporaryDirectory.standardized)
        #expect(url.lastPathComponent.hasPrefix("portolan-house-"), "\(directory.root)")
        #expect(try String(contentsOfFile: directory.path("screens/list.lua"), encoding: .utf8) == "return 2")
        directory.remove()
        #expect(!FileManager.default.fileExists(atPath: directory.root))
        directory.remove()   // again: nothing to do, and no error
    }

    @Test func twoDirectoriesNeverShareAName() throws {
        let first = try TemporaryDirectory("house"), second = try TemporaryDirectory("house")
        defer { first.remove(); second.remove() }
        #expect(first.root != second.root)
    }

    @Test func anOwnerThatLetsItGoRemovesItToo() throws {
        var root = ""
        do {
            let directory = try TemporaryDirectory("house", files: ["a": "a"])
            root = directory.root
        }
        #expect(!root.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: root))
    }
}
