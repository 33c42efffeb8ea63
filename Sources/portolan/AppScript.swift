import ArgumentParser

/// The app script a command loads: a Lua file that calls `portolan.app`, shown as `app.lua`.
///
/// `check` and `graph` take it as their one positional argument, and share this declaration as an
/// `@OptionGroup`. `repl` takes it optionally (the built-in demo app otherwise) and `test` as
/// `--app` (its positional arguments are the scenario files): their syntax differs, so they declare
/// their own, with this value name and these words.
struct AppScript: ParsableArguments {
    /// How help shows the value.
    static let valueName = "app.lua"
    /// What help says it is.
    static let meaning = "The app script: a Lua file that calls portolan.app."

    @Argument(help: ArgumentHelp(AppScript.meaning, valueName: AppScript.valueName))
    var path: String
}
