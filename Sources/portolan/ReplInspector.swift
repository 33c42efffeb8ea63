import ArgumentParser
import PortolanTools

/// `portolan repl --inspect [PORT]`: the live inspector, started beside the session.
///
/// When the port is taken (or not allowed), the REPL says so, naming the port and how to pick
/// another, and exits with status 1 before reading a line: asked for an inspector, the user
/// would otherwise route on without the page they expect.
extension Repl {
    /// Starts the inspector when `--inspect` asked for it, tells the session to report to it, and
    /// prints its address.
    static func startInspector(port: UInt16?, _ session: ReplSession, style: ReplStyle) async throws -> InspectorProcess? {
        guard let port else { return nil }
        let inspector: InspectorProcess
        do {
            inspector = try InspectorProcess.start(port: port)
        } catch {
            StandardStreams.errorLine("error: \(error.description)")
            throw ExitCode.failure
        }
        await session.addObserver(inspector)
        StandardStreams.write(style.paint("inspector: \(inspector.url) (the live tree, the events, the last route)", .note) + "\n")
        return inspector
    }

    /// The command line with `--inspect`'s default port written out where it was left off
    /// (`--inspect` last, or followed by another option or the app file), since an option's
    /// value cannot be optional in ArgumentParser.
    static func givingInspectItsPort(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            result.append(argument)
            if argument == "--" {
                result += arguments[(index + 1)...]
                break
            }
            if argument == "--inspect" {
                let next = index + 1 < arguments.endIndex ? arguments[index + 1] : nil
                if next.map({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) != true {
                    result.append(String(InspectorProcess.defaultPort))
                }
            }
            index += 1
        }
        return result
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
