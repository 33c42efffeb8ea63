import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The real `portolan-inspector` process, started and fed as `portolan repl --inspect` does: its
/// first line says where it listens, and each line on its input is a state the page is sent.
///
/// The server runs in a process of its own, as it does for a user, and not in the test process:
/// there its tasks shared Swift's cooperative threads with every other suite's, and on a busy CI
/// machine those held both threads long enough that a request went unanswered for a minute.
final class InspectorUnderTest {
    let port: UInt16
    /// The page's address, as the REPL prints it, and the token in it.
    let url: String
    let token: String
    private let process: Process
    private let input: FileHandle

    private init(process: Process, input: FileHandle, url: String) throws {
        let components = URLComponents(string: url)
        guard let port = components?.port.flatMap(UInt16.init(exactly:)),
              let token = components?.queryItems?.first(where: { $0.name == "token" })?.value
        else { throw TestFailure("portolan-inspector's URL has no port or no token: \(url)") }
        (self.process, self.input, self.url, self.port, self.token) = (process, input, url, port, token)
    }

    /// Starts the build's `portolan-inspector` on a port the system picks.
    static func start() async throws -> InspectorUnderTest {
        guard let path = BuiltProduct.path("portolan-inspector") else {
            throw TestFailure("portolan-inspector was not found next to the test bundle")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--port", "0"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let reading = output.fileHandleForReading
        let line = await offThePool { firstLine(of: reading.fileDescriptor) }
        guard line.hasPrefix("listening ") else {
            process.terminate()
            throw TestFailure("portolan-inspector did not listen: \(line)")
        }
        return try InspectorUnderTest(process: process, input: input.fileHandleForWriting, url: String(line.dropFirst(10)))
    }

    /// Sends `state` (one line of JSON) as the REPL does after a line that changed it. The
    /// process reads it in its own time: a page sees it in a frame after this returns.
    func publish(_ state: String) {
        try? input.write(contentsOf: Data((state + "\n").utf8))
    }

    /// Ends its input, as a REPL that quits does, and waits for it to exit.
    func stop() async {
        try? input.close()
        let process = process
        await offThePool { process.waitUntilExit() }
    }

    deinit {
        // A test that failed before `stop` leaves no server behind.
        if process.isRunning { process.terminate() }
    }
}

/// The bytes of `descriptor` up to its first line feed (or its end), a byte at a time so that
/// nothing after the line is consumed.
private func firstLine(of descriptor: CInt) -> String {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while bytes.count < 4096 {
        let count = read(descriptor, &byte, 1)
        if count < 0, errno == EINTR { continue }
        guard count == 1, byte != 10 else { break }
        bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
}
