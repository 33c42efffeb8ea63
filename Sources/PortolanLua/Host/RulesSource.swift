/// Rules as a host loaded them, kept so that they can be loaded again: what a canary that fails
/// reverts to (the rules embedded in the app, or the bundle in service before the swap).
package enum RulesSource: Sendable, Equatable {
    /// An app file; its directory is the app's (`require`, `portolan.load`).
    case file(String)
    /// App text, named `chunkName` in errors.
    case source(String, chunkName: String)
}
