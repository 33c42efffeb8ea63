import Foundation
import Lua
@testable import PortolanTools
import Testing
import TestSupport

/// `WholeFile`: the temporary file it writes through cannot be redirected (issue 18, finding 9),
/// nor can a link planted at its folder (issue 33, item 1; relative paths: OutputFolderCLITests).
@Suite struct WholeFileTests {
    @Test func aLinkPlantedAtATemporaryNameIsNeverWrittenThrough() throws {
        let scratch = try TemporaryDirectory("wholefile")
        defer { scratch.remove() }
        let directory = scratch.root
        let victim = directory + "/victim"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let target = directory + "/out.txt"
        // The old scheme's name for this process, and guesses at others.
        let pid = Int(ProcessInfo.processInfo.processIdentifier)
        let guesses = [target + ".tmp-\(pid)", target + ".tmp", target + ".tmp-0", directory + "/.out.txt.tmp"]
            + (1...50).map { target + ".tmp-\(pid + $0)" }
        for guess in guesses {
            try FileManager.default.createSymbolicLink(atPath: guess, withDestinationPath: victim)
        }
        try WholeFile.write("the output\n", to: target)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "the output\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: target)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o644)
        // Nothing left beside it but the planted links.
        let left = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(Set(left) == Set(["victim", "out.txt"] + guesses.map { ($0 as NSString).lastPathComponent }))
    }

    @Test func aLinkAtTheTargetIsReplacedNotFollowed() throws {
        let scratch = try TemporaryDirectory("wholefile")
        defer { scratch.remove() }
        let directory = scratch.root
        let victim = directory + "/victim"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/out.txt", withDestinationPath: victim)
        try WholeFile.write("the output\n", to: directory + "/out.txt")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(try String(contentsOfFile: directory + "/out.txt", encoding: .utf8) == "the output\n")
    }

    @Test func aFailedWriteLeavesNoTemporaryFile() throws {
        let scratch = try TemporaryDirectory("wholefile")
        defer { scratch.remove() }
        let directory = scratch.root
        // A directory at the target: the rename over it fails, after the temporary file was written.
        try FileManager.default.createDirectory(atPath: directory + "/out", withIntermediateDirectories: false)
        #expect(throws: WholeFile.WriteError.self) { try WholeFile.write("text", to: directory + "/out") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out"])
        #expect(throws: WholeFile.WriteError.self) { try WholeFile.write("text", to: directory + "/no/such/dir/out") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out"])
    }

    /// A link at the folder of the output file is never written through, whatever it leads to; the
    /// folders above an absolute path's last are the person's, and followed.
    @Test func aLinkAtTheOutputFolderIsRefused() throws {
        let scratch = try TemporaryDirectory("wholefile")
        defer { scratch.remove() }
        let directory = scratch.root
        try FileManager.default.createDirectory(atPath: directory + "/elsewhere/inner", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/out", withDestinationPath: "elsewhere")
        try FileManager.default.createSymbolicLink(atPath: directory + "/loop", withDestinationPath: "loop")
        for target in [directory + "/out/page.html", directory + "/loop/page.html"] {
            let error = #expect(throws: WholeFile.WriteError.self) { try WholeFile.write("text", to: target) }
            #expect(error?.description == "cannot write \(target): a symbolic link on the way, and output files are never written through one")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/elsewhere") == ["inner"])
        try WholeFile.write("text", to: directory + "/out/inner/page.html")
        #expect(try String(contentsOfFile: directory + "/elsewhere/inner/page.html", encoding: .utf8) == "text")
    }

    @Test func aFolderMadeForOutputIsNeverALink() throws {
        let scratch = try TemporaryDirectory("wholefile")
        defer { scratch.remove() }
        let directory = scratch.root
        _ = try OutputFolder(directory + "/made", creating: true)
        _ = try OutputFolder(directory + "/made", creating: true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["made"])
        try FileManager.default.createSymbolicLink(atPath: directory + "/planted", withDestinationPath: "made")
        #expect(throws: OutputFolder.Failure.self) { _ = try OutputFolder(directory + "/planted", creating: true) }
        #expect(throws: OutputFolder.Failure.self) { _ = try OutputFolder(directory + "/no/such", creating: true) }
    }
}
