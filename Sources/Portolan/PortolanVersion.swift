/// Portolan's version, in one place for every layer: the engine is the bottom of the layering, so the Lua
/// host, the tools, the CLI (`portolan --version`) and an app that embeds any of them all read it here.
public enum PortolanVersion {
    /// major.minor.patch, raised with each release.
    public static let current = "0.10.0"
}
