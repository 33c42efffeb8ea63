import Portolan
import PortolanLua
import PortolanShipping

/// Those told what each input did (``ReplObserver``, the live inspector), and what they were last
/// told of the app's router: a new router (the app reloaded) is news even when nothing routed.
final class ReplObservers {
    private let host: PortolanHost
    /// How updates name the app.
    private let appName: String
    /// The app's script, whose source says where guards redirect; nil for the demo.
    private let appFile: String?
    private var observers: [any ReplObserver] = []
    private var notifiedRouter: ObjectIdentifier?
    /// The app's rules, read again whenever the router changes (a reload).
    private var rules: AppRulesPicture?

    init(host: PortolanHost, appName: String, appFile: String?) {
        self.host = host
        self.appName = appName
        self.appFile = appFile
    }

    /// Adds an observer and tells it at once where the session stands.
    nonisolated(nonsending) func add(_ observer: any ReplObserver) async {
        observers.append(observer)
        notifiedRouter = await host.router.map(ObjectIdentifier.init)
        await readRules()
        observer.replDidUpdate(await update(with: []))
    }

    /// Tells the observers what `events` did, when they did something or the app changed.
    nonisolated(nonsending) func notify(of events: [RouteEventLog.Logged]) async {
        guard !observers.isEmpty else { return }
        let router = await host.router
        let routerID = router.map(ObjectIdentifier.init)
        guard !events.isEmpty || routerID != notifiedRouter else { return }
        if routerID != notifiedRouter { await readRules() }
        notifiedRouter = routerID
        let update = await update(with: events)
        for observer in observers { observer.replDidUpdate(update) }
    }

    private nonisolated(nonsending) func readRules() async {
        rules = await AppRulesPicture.read(from: host, source: appFile.map(AppChecker.readFile) ?? DemoApp.source)
    }

    private nonisolated(nonsending) func update(with events: [RouteEventLog.Logged]) async -> ReplUpdate {
        ReplUpdate(
            appName: appName, tree: await host.router?.tree, events: events.map(\.event),
            routes: RouteReport.reports(from: events), rules: rules)
    }
}
