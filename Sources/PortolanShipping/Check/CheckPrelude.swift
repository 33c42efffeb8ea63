import PortolanLua

/// Lua run in the linter's host before the app: it records what the app declares instead of
/// stopping at the first mistake. `portolan.app` keeps the node tables (and still declares them
/// when it can, so the rest of the script runs as usual); `portolan.redirect_rule` keeps its rules;
/// `__portolan_at` remembers the lines that `NodeLineMarker` wrote into the source (a global, since
/// the rewritten app calls it). After the app has run, `__portolan_check_collect()` returns a plain
/// description of it all.
///
/// The Lua is `CheckPrelude.lua`, beside this file, compiled in by SwiftPM's `embedInCode`.
let checkPreludeSource = String(decoding: PackageResources.CheckPrelude_lua, as: UTF8.self)
let checkPreludeChunkName = "=portolan check"
