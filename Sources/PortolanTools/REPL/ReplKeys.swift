import PortolanLua

/// The Lua that lists a table's keys for completion: `ReplKeys.lua`, beside this file, compiled in
/// by SwiftPM's `embedInCode`. Its arguments are the dotted path, the prefix and `shown`.
let replKeysSource = String(decoding: PackageResources.ReplKeys_lua, as: UTF8.self)
let replKeysChunkName = "=complete"
