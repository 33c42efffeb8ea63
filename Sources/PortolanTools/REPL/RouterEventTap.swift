import Portolan
import PortolanLua

/// Follows the app's router events through the host (which follows a new router each time the app
/// is declared again or reloaded, the reload's own routes included) and hands each to the log of
/// the input going through, and to the screen under `:events on`.
final class RouterEventTap {
    /// The events of the input going through, to show redirects and queued routes.
    let log = RouteEventLog()
    /// Whether `:events on` is in force; read on the router's thread.
    private let showsEvents = Locked(false)
    /// Whether the host's events are observed, so that they are observed once.
    private var isFollowing = false
    private let host: PortolanHost
    private let printer: ReplPrinter

    init(host: PortolanHost, printer: ReplPrinter) {
        self.host = host
        self.printer = printer
    }

    /// Observes the host's router events, once.
    nonisolated(nonsending) func follow() async {
        guard !isFollowing else { return }
        isFollowing = true
        let log = self.log, showsEvents = self.showsEvents, printer = self.printer
        await host.observeEventsAndSteps { event, step in
            log.record(event, step: step)
            if showsEvents.value {
                printer.say("· " + ReplPrinter.describe(event, step: step), .event)
            }
        }
    }

    /// `:events on|off`.
    func events(_ argument: String) {
        switch argument {
        case "on":
            showsEvents.withLock { $0 = true }
            let names = RouterEvent.Name.observedByScripts.map { "· \($0.rawValue)" }.joined(separator: ", ")
            printer.say("router events will be shown as they happen (\(names))", .note)
        case "off":
            showsEvents.withLock { $0 = false }
            printer.say("router events hidden", .note)
        default:
            printer.say("error: :events takes on or off", .error)
        }
    }
}
