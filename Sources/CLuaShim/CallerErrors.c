// Errors a library raises for its caller's misuse, placed at the caller's line. A library written
// in Lua (the host's `portolan` module) raises with `error(message, 2)` in vain when it was reached
// by a tail call (`return portolan.redirect(x)`): Lua drops the caller's frame, so level 2 is the
// library's own caller or nothing, and the message names a line of the library. So the state
// names its library chunks, scripts call the library's functions through C wrappers that keep the
// caller's frame (a C function called in tail position does not replace it), and the position of
// such an error — and of one a Swift function raises through the trampoline — is that of the first
// frame with a line that is not the library's (so `pcall(portolan.wait, "x")` names the pcall's line).
#include "CLuaShim.h"
#include "CallerErrors.h"
#include "Protect.h"

#include <string.h>

/// Registry light key, unique by address: the chunk name of the library (a string), if set.
static const char LIBRARY_KEY = 'l';

/// Calls the wrapped function (upvalue 1) with the arguments and returns all its results. The
/// continuation does the same after a yield inside it (a route the host runs).
static int keptCallerContinue(lua_State *L, int status, lua_KContext context) {
    (void)status;
    (void)context;
    return lua_gettop(L);
}

static int keptCaller(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, keptCallerContinue);
    return lua_gettop(L);
}

/// Whether a source is the library's: the chunk named NAME, or NAME.part.
static int isLibrarySource(const char *source, const char *library, size_t length) {
    if (library == NULL || strncmp(source, library, length) != 0) return 0;
    return source[length] == '\0' || source[length] == '.';
}

void cluashim_whereoutsidelibrary(lua_State *L, int level) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &LIBRARY_KEY);
    size_t length = 0;
    const char *library = lua_tolstring(L, -1, &length);   // kept on the stack while it is read
    lua_Debug ar;
    while (lua_getstack(L, level, &ar)) {
        lua_getinfo(L, "Sl", &ar);
        // A C function (pcall, a wrapper) has no line: the script that called it does.
        if (ar.currentline > 0 && !isLibrarySource(ar.source, library, length)) {
            lua_pop(L, 1);
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
        level++;
    }
    lua_pop(L, 1);
    lua_pushliteral(L, "");
}

/// `error_at_caller(message)`: raises `message` (a string) at the line of the first frame outside
/// the library; any other value is raised as it is.
static int errorAtCaller(lua_State *L) {
    lua_settop(L, 1);
    if (lua_type(L, 1) == LUA_TSTRING) {
        cluashim_whereoutsidelibrary(L, 1);
        lua_insert(L, 1);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/// `keep_caller(fn)`: fn behind a C wrapper that keeps its caller's frame.
static int keepCaller(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 1);
    lua_pushcclosure(L, keptCaller, 1);
    return 1;
}

static int p_setlibrary(lua_State *L) {
    lua_pushstring(L, (const char *)lua_touserdata(L, 1));
    lua_rawsetp(L, LUA_REGISTRYINDEX, &LIBRARY_KEY);
    return 0;
}

int cluashim_psetlibrarychunk(lua_State *L, const char *chunkName) {
    lua_pushlightuserdata(L, (void *)chunkName);
    return protect(L, p_setlibrary, 1, 0);
}

static int p_pushcallerfunctions(lua_State *L) {
    lua_pushcfunction(L, errorAtCaller);
    lua_pushcfunction(L, keepCaller);
    return 2;
}

int cluashim_ppushcallerfunctions(lua_State *L) { return protect(L, p_pushcallerfunctions, 0, 2); }
