import Portolan
import PortolanLua

/// Those told what each input did (``ReplObserver``, the live inspector), and what they were last
/// told of the app's router: a new router (the app reloaded) is news even when nothing routed.
final class ReplObservers {
    private let host: PortolanHost
    /// How updates name the app.
    private let appName: String
    private var observers: [any ReplObserver] = []
    private var notifiedRouter: ObjectIdentifier?

    init(host: PortolanHost, appName: String) {
        self.host = host
        self.appName = appName
    }

    /// Adds an observer and tells it at once where the session stands.
    nonisolated(nonsending) func add(_ observer: any ReplObserver) async {
        observers.append(observer)
        notifiedRouter = await host.router.map(ObjectIdentifier.init)
        observer.replDidUpdate(await update(with: []))
    }

    /// Tells the observers what `events` did, when they did something or the app changed.
    nonisolated(nonsending) func notify(of events: [RouteEventLog.Logged]) async {
        guard !observers.isEmpty else { return }
        let router = await host.router
        let routerID = router.map(ObjectIdentifier.init)
        guard !events.isEmpty || routerID != notifiedRouter else { return }
        notifiedRouter = routerID
        let update = await update(with: events)
        for observer in observers { observer.replDidUpdate(update) }
    }

    private nonisolated(nonsending) func update(with events: [RouteEventLog.Logged]) async -> ReplUpdate {
        ReplUpdate(
            appName: appName, tree: await host.router?.tree, events: events.map(\.event),
            routes: RouteReport.reports(from: events))
    }
}
