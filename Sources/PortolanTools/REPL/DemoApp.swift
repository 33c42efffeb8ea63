import PortolanLua

/// The built-in demo app: `Examples/movies/app.lua`, compiled into the binary (through the link
/// `DemoApp.lua` and SwiftPM's `embedInCode`), so that `portolan` runs anywhere without the
/// repository and never drifts from the example.
public enum DemoApp {
    /// The chunk name errors carry (`Examples/movies/app.lua:84: ...`): the file it copies, so
    /// that a line number in a message leads to the right line.
    public static let chunkName = "Examples/movies/app.lua"

    public static let source = String(decoding: PackageResources.DemoApp_lua, as: UTF8.self)

    /// Hands the demo app's bytecode built into the binary to the hosts (`ToolBytecode`), so that
    /// the REPL loads it without parsing it; before `PortolanHost.prepare(app:)`, which then finds it
    /// compiled. Whether the bytecode stands for the source (otherwise the source is parsed).
    @discardableResult
    public static func useBuiltInBytecode() -> Bool {
        ToolBytecode.demoAppInUse
    }
}
