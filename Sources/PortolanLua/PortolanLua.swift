// What an app that embeds the host imports: `import PortolanLua` alone brings the engine's types
// (`Router`, `Destination`, `Entry`, `RouterEvent`, `RouteFailure`, `ContextValue`, the node
// protocols…) and the Lua values the host's API takes and returns (`LuaValue`, `LuaInterrupt`),
// since its public API is written in them.
@_exported import Lua
@_exported import Portolan
