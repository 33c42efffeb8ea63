/// Portolan's definitions for the Lua language server (`EditorDefinitions.lua`, beside this file,
/// compiled in): what `portolan types` prints, and what `Examples/types/portolan.lua` holds.
public enum EditorDefinitions {
    /// The definitions file's text.
    public static var text: String {
        String(decoding: PackageResources.EditorDefinitions_lua, as: UTF8.self)
    }
}
