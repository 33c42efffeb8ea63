import Portolan
import PortolanLua

/// Telling the session's observers (`ReplObserver`) what a line did.
extension ReplSession {
    /// Adds an observer and tells it at once where the session stands.
    public func addObserver(_ observer: any ReplObserver) async {
        observers.append(observer)
        notifiedRouter = await host.router.map(ObjectIdentifier.init)
        observer.replDidUpdate(await update(with: []))
    }

    /// Tells the observers what `events` did, when they did something or the app changed.
    func notifyObservers(of events: [RouteEventLog.Logged]) async {
        guard !observers.isEmpty else { return }
        let router = await host.router
        let routerID = router.map(ObjectIdentifier.init)
        guard !events.isEmpty || routerID != notifiedRouter else { return }
        notifiedRouter = routerID
        let update = await update(with: events)
        for observer in observers { observer.replDidUpdate(update) }
    }

    private func update(with events: [RouteEventLog.Logged]) async -> ReplUpdate {
        ReplUpdate(
            appName: appName, tree: await host.router?.tree, events: events.map(\.event),
            routes: RouteReport.reports(from: events))
    }
}
