import PortolanLua

/// The Lua half of the scenario runner: `scenario`, `expect` and `skip`, installed as globals in
/// every state the runner creates, before the app is loaded.
///
/// The chunk's arguments are the runner's Swift function, `report(event, ...)`, the host's printer
/// of values (the REPL's, in its compact form) and its order of keys. The runner answers:
/// - `("mode")` returns the index of the scenario to run, or nil while the runner only lists them;
/// - `("found", index, name, mark)` names a scenario while listing, with `"only"` or `"skip"` for
///   `scenario.only` and `scenario.skip`;
/// - `("start", index, name)`, `("finish", index)` frame the run of the selected one;
/// - `("stop")` says that the file's top level is being ended, just after `("finish")`: the
///   error raised next is the end of the file, no failure (see ``ScenarioRunner``);
/// - `("skip", reason)` records a skip just before `skip` raises its marker.
///
/// It returns the compiler of scenario files, and the function the runner calls after the file
/// raised: the selected scenario's `after_each` functions, which the error skipped (each under
/// pcall; the first one's error, or nil).
///
/// The selected scenario's function is called right where the file calls `scenario`, so it runs
/// in the file's main flow and `portolan.route` works in it as it does at the top level.
///
/// The Lua is `ExpectLibrary.lua`, beside this file, compiled in by SwiftPM's `embedInCode`.
let expectLibrarySource = String(decoding: PackageResources.ExpectLibrary_lua, as: UTF8.self)
let expectLibraryChunkName = "=expect"
