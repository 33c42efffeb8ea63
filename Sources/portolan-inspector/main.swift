import Foundation
import PortolanInspector

#if canImport(Glibc)
import Glibc
#endif

// `portolan-inspector --port PORT`: the live inspector's server, which `portolan repl --inspect`
// starts and feeds (`InspectorProcess` in the `portolan` target). It is a process of its own so
// that FlyingFox, Foundation's networking and libcurl stay out of the REPL's binary.
//
// The conversation, on its standard streams:
// - it writes one line: `listening URL` once it listens, or `error: WHY` before it exits 1;
// - it reads the page's states, one line of JSON each, and serves the newest;
// - it exits when its input ends: the REPL has gone.

/// Ctrl-C in the REPL's terminal is for the REPL: the REPL starts this process in a group of its
/// own, and it ignores the signal besides.
signal(SIGINT, SIG_IGN)

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, arguments[0] == "--port", let port = UInt16(arguments[1]) else {
    say("error: usage: portolan-inspector --port PORT (0 to 65535); portolan repl --inspect starts it")
    exit(2)
}

let server: InspectorServer
do {
    server = try await InspectorServer.start(port: port)
} catch {
    say("error: \(error.description)")
    exit(1)
}
say("listening \(server.url)")

// The states arrive on a thread of their own: a blocking read must not hold one of the few
// threads the server's tasks run on.
Thread.detachNewThread {
    while let line = readLine(strippingNewline: true) {
        server.feed.publish(line)
    }
    exit(0)
}
while true {
    try? await Task.sleep(for: .seconds(3600))
}
