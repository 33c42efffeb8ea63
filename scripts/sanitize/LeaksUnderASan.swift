// What LeakSanitizer reports that is not Portolan's: minimal reproductions, one per case, each
// run as its own process (the mode is the first argument):
//
// - empty-file / full-file: String(contentsOf:) of an empty file, then of a 6-byte one, ten times
//   each, as the CLI tests read the output files of the binary and of tmux. Foundation leaks a
//   4 KiB buffer per read of the empty file (allocated in readBytesFromFile), none for the other.
// - xml: three small SVG documents parsed and queried with XPath, as the rendering and coverage
//   tests check their drawings, each going out of scope. FoundationXML leaves every one allocated
//   (indirect leaks only: its nodes hold one another).
// - process: /bin/true run five times through Process with a termination handler that resumes a
//   continuation, as PortolanBinary.run does. Foundation leaves Process objects allocated, with
//   what they hold (their run loop source, URLs, arguments), whether or not the handler is
//   cleared when it runs.
// - weak-alive / weak-dead: an object that has had a weak reference to it, alive at exit, then
//   one that died before exit. The first reports a 32-byte "direct leak" from formWeakReference:
//   Swift keeps the address of the object's weak-reference side table inside its reference
//   count word, shifted and tagged, where LeakSanitizer cannot see a pointer. The second reports
//   nothing: the side table is freed with its object.
//
//   bash scripts/sanitize/leaks-under-asan.sh
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

func readFile(empty: Bool) throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("portolan-leak-\(getpid())")
    _ = FileManager.default.createFile(atPath: file.path, contents: empty ? nil : Data("hello\n".utf8))
    defer { try? FileManager.default.removeItem(at: file) }
    var characters = 0
    for _ in 0..<10 {
        characters += try String(contentsOf: file, encoding: .utf8).count
    }
    print("read a file of \(empty ? 0 : 6) bytes 10 times: \(characters) characters")
}

func queryDocuments() throws {
    for _ in 0..<3 {
        let document = try XMLDocument(xmlString: #"<svg><g id="a"><rect x="1"/></g></svg>"#)
        let rect = try document.nodes(forXPath: "//rect").first as? XMLElement
        guard rect?.attribute(forName: "x")?.stringValue == "1" else { fatalError("the query found no rect") }
    }
    print("parsed and queried 3 documents")
}

func runTrue() async throws {
    for _ in 0..<5 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
    print("ran /bin/true 5 times")
}

final class Owner {}
final class Watcher {
    weak var owner: Owner?
    init(_ owner: Owner) { self.owner = owner }
}
let survivor = Owner()

func watch(aliveAtExit: Bool) {
    let owner = aliveAtExit ? survivor : Owner()
    withExtendedLifetime(Watcher(owner)) {}
    print("an object with a weak reference to it, \(aliveAtExit ? "alive at exit" : "gone before exit")")
}

switch CommandLine.arguments.dropFirst().first {
case "empty-file": try readFile(empty: true)
case "full-file": try readFile(empty: false)
case "xml": try queryDocuments()
case "process": try await runTrue()
case "weak-alive": watch(aliveAtExit: true)
case "weak-dead": watch(aliveAtExit: false)
default: print("modes: empty-file, full-file, xml, process, weak-alive, weak-dead")
}
