// The libraries a state opens, and the sandbox: which of them a script gets, the wrappers that close the
// doors left in them (binary chunks, collector tuning, finalizers, unbounded pattern matching), and the
// controlled `require`.
#include "BoundedStringSearch.h"
#include "ChargedLibrary.h"
#include "CLuaShim.h"
#include "HostEnvironment.h"
#include "Protect.h"
#include "StepCharge.h"
#include "ReadOnlyTables.h"

#include <stdio.h>
#include <sys/stat.h>

static int p_openlibs(lua_State *L) {
    luaL_openlibs(L);
    return 0;
}

int cluashim_popenlibs(lua_State *L) { return protect(L, p_openlibs, 0, 0); }

/// `load` forcing text mode: binary chunks bypass the compiler's checks and can crash the VM.
static int sandboxLoad(lua_State *L) {
    // Compiling runs in C, unseen by the count hook: a text is charged by its size (64 bytes a step).
    if (lua_type(L, 1) == LUA_TSTRING) cluashim_chargesteps(L, 1 + (long long)(lua_rawlen(L, 1) / 64));
    int n = lua_gettop(L);
    if (n >= 3) {
        lua_pushliteral(L, "t");
        lua_replace(L, 3);
    } else {
        lua_settop(L, 2);   // keeps `env` absent (an explicit nil would mean "no _ENV")
        lua_pushliteral(L, "t");
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/// Options a script may use. "stop", "restart", "incremental", "generational" and "setpause" are the host's:
/// a script that stops the collector or retunes it can exhaust memory or stall every other call.
static int sandboxCollectGarbage(lua_State *L) {
    static const char *const allowed[] = {"collect", "count", "step", "isrunning", NULL};
    luaL_checkoption(L, 1, "collect", allowed);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/// Finalizers run with hooks disabled (lgc.c, GCTM), so a __gc metamethod would escape the instruction budget
/// and the interrupt. Lua only honours __gc present when the metatable is set, so checking here is enough.
static int sandboxSetMetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        int hasGC = lua_rawget(L, 2) != LUA_TNIL;
        lua_pop(L, 1);
        if (hasGC) return luaL_error(L, "__gc metamethods are not allowed in the sandbox");
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

// Light keys of the registry, unique by address.
static const char MODULE_DIRECTORY_KEY = 'd';
/// Modules the sandboxed require read from a file: name → path.
static const char REQUIRED_FILES_KEY = 'f';

int cluashim_validmodulename(const char *name) {
    size_t segment = 0;
    size_t length = 0;
    for (const char *p = name; *p != '\0'; p++, length++) {
        char ch = *p;
        if (ch == '.') {
            if (segment == 0) return 0;   // leading dot, "..", or empty segment
            segment = 0;
            continue;
        }
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
        if (!ok) return 0;   // no '/', '\\', ':' or anything that could leave the directory
        segment++;
    }
    return length > 0 && length <= 200 && segment > 0;
}

/// Pushes the file name for module `name` under the module directory, or nothing and returns 0.
static int pushModulePath(lua_State *L, const char *name) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &MODULE_DIRECTORY_KEY) != LUA_TSTRING) {
        lua_pop(L, 1);
        return 0;
    }
    if (!cluashim_validmodulename(name)) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushliteral(L, "/");
    luaL_gsub(L, name, ".", "/");
    lua_pushliteral(L, ".lua");
    lua_concat(L, 4);
    return 1;
}

/// The largest module file `require` reads, as `LuaState.maximumChunkFileSize` for other scripts.
static const off_t MAXIMUM_MODULE_FILE_SIZE = 16 << 20;

/// Whether `path` is a regular file small enough to be a module, and can be opened; else the reason.
static const char *unreadable(const char *path) {
    struct stat status;
    if (stat(path, &status) != 0) return "no file";
    if (!S_ISREG(status.st_mode)) return "not a regular file";
    if (status.st_size > MAXIMUM_MODULE_FILE_SIZE) return "larger than 16 MiB, the most a script may be";
    FILE *f = fopen(path, "r");
    if (f == NULL) return "cannot be read";
    fclose(f);
    return NULL;
}

/// Pushes the loader of module `name` and the value it receives after the name: ":preload:", or the path of the
/// file it was compiled from. Returns 1 for a file. Raises when neither the host nor the directory has it.
static int pushLoader(lua_State *L, const char *name) {
    int top = lua_gettop(L);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushvalue(L, 1);
    if (lua_rawget(L, -2) != LUA_TNIL) {
        lua_remove(L, -2);
        lua_pushliteral(L, ":preload:");
        return 0;
    }
    lua_settop(L, top);
    if (!pushModulePath(L, name)) {
        return luaL_error(L, "module '%s' not found:\n\tno field package.preload['%s']\n\tno module file", name, name);
    }
    const char *path = lua_tostring(L, -1);
    const char *why = unreadable(path);
    if (why != NULL) {
        return luaL_error(L, "module '%s' not found:\n\tno field package.preload['%s']\n\t%s: '%s'", name, name, why,
                          path);
    }
    if (luaL_loadfilex(L, path, "t") != LUA_OK) {
        return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, path, lua_tostring(L, -1));
    }
    lua_insert(L, -2);   // loader, path
    return 1;
}

/// Pushes the registry table under the light key `key`, creating it the first time.
static void pushRegistryTable(lua_State *L, const void *key) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

/// require(name): package.loaded, then modules preloaded by the host, then `directory/name.lua` when the host
/// gave a directory. No package.path, no C loaders. A module read from a file is remembered (name → path), so
/// the host can list the files its scripts depend on and forget those modules to read them again.
static int sandboxRequire(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);   // 2
    lua_pushvalue(L, 1);
    if (lua_rawget(L, 2) != LUA_TNIL && lua_toboolean(L, -1)) return 1;
    lua_pop(L, 1);

    int fromFile = pushLoader(L, name);                          // 3: loader, 4: ":preload:" or path
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 4);
    lua_call(L, 2, 1);                                           // 5: result
    if (!lua_isnil(L, 5)) {
        lua_pushvalue(L, 1);
        lua_pushvalue(L, 5);
        lua_rawset(L, 2);
    }
    lua_pushvalue(L, 1);
    if (lua_rawget(L, 2) == LUA_TNIL) {                          // the module returned nothing: mark it loaded
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
        lua_pushvalue(L, 1);
        lua_pushvalue(L, -2);
        lua_rawset(L, 2);
    }
    if (fromFile) {                                              // only once it loaded: a failed one is not cached
        pushRegistryTable(L, &REQUIRED_FILES_KEY);
        lua_pushvalue(L, 1);
        lua_pushvalue(L, 4);
        lua_rawset(L, -3);
        lua_pop(L, 1);
    }
    lua_pushvalue(L, 4);
    return 2;
}

/// Replaces global `name` with a C closure whose upvalue is the original.
static void wrapGlobal(lua_State *L, const char *name, lua_CFunction wrapper) {
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, wrapper, 1);
    lua_setfield(L, -2, name);
}

static int p_opensandbox(lua_State *L) {
    static const luaL_Reg libraries[] = {
        {LUA_GNAME, luaopen_base},         {LUA_STRLIBNAME, luaopen_string}, {LUA_TABLIBNAME, luaopen_table},
        {LUA_MATHLIBNAME, luaopen_math},   {LUA_UTF8LIBNAME, luaopen_utf8},  {LUA_COLIBNAME, luaopen_coroutine},
        {NULL, NULL},
    };
    for (const luaL_Reg *lib = libraries; lib->func != NULL; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }

    chargeLibraryCalls(L);   // first: the wrappers below call these as scripts do

    lua_pushglobaltable(L);
    static const char *const removed[] = {"dofile", "loadfile", "loadstring", NULL};
    for (const char *const *name = removed; *name != NULL; name++) {
        lua_pushnil(L);
        lua_setfield(L, -2, *name);
    }
    wrapGlobal(L, "load", sandboxLoad);
    wrapGlobal(L, "collectgarbage", sandboxCollectGarbage);
    wrapGlobal(L, "setmetatable", sandboxSetMetatable);
    wrapGlobal(L, "rawset", readOnlyRawSet);
    lua_pushcfunction(L, sandboxRequire);
    lua_setfield(L, -2, "require");

    lua_getfield(L, -1, LUA_STRLIBNAME);
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");   // dumps bytecode, the input binary `load` would need
    // liblua5.4's matcher runs in C, unseen by the count hook: a pattern could run for ever. The string
    // metatable's __index is this same table, so ("x"):find gets the bounded one too.
    boundedsearch_install(L, -1);
    lua_pop(L, 2);

    // getmetatable("") returns this field instead of the metatable, so scripts cannot reach __index.
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);

    // Last, once the wrappers above are in: the libraries every script shares become read-only.
    static const char *const shared[][2] = {
        {LUA_STRLIBNAME, "the string library"}, {LUA_TABLIBNAME, "the table library"},
        {LUA_MATHLIBNAME, "the math library"},  {LUA_UTF8LIBNAME, "the utf8 library"},
        {LUA_COLIBNAME, "the coroutine library"},
    };
    for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) replaceGlobalByView(L, shared[i][0], shared[i][1]);
    captureHostEnvironment(L);   // last: the host's chunks see these globals whatever scripts do later
    return 0;
}

int cluashim_popensandbox(lua_State *L) { return protect(L, p_opensandbox, 0, 0); }

static int p_setpreload(lua_State *L) {
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushstring(L, (const char *)lua_touserdata(L, 1));
    lua_pushvalue(L, 2);
    lua_rawset(L, -3);
    return 0;
}

int cluashim_psetpreload(lua_State *L, const char *name) {
    lua_pushlightuserdata(L, (void *)name);
    lua_insert(L, -2);   // name v
    return protect(L, p_setpreload, 2, 0);
}

static int p_setmoduledirectory(lua_State *L) {
    const char *directory = (const char *)lua_touserdata(L, 1);
    if (directory != NULL) lua_pushstring(L, directory);
    else lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &MODULE_DIRECTORY_KEY);
    return 0;
}

int cluashim_psetmoduledirectory(lua_State *L, const char *directory) {
    lua_pushlightuserdata(L, (void *)directory);
    return protect(L, p_setmoduledirectory, 1, 0);
}

static int p_requiredfiles(lua_State *L) {
    lua_newtable(L);                                             // 1: the list
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &REQUIRED_FILES_KEY) != LUA_TTABLE) return 1;
    lua_Integer count = 0;
    lua_pushnil(L);
    while (lua_next(L, 2) != 0) lua_rawseti(L, 1, ++count);      // pops the path, keeps the name for lua_next
    lua_settop(L, 1);
    return 1;
}

int cluashim_prequiredfiles(lua_State *L) { return protect(L, p_requiredfiles, 0, 1); }

static int p_forgetrequiredmodules(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &REQUIRED_FILES_KEY) != LUA_TTABLE) return 0;   // 1
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);    // 2
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);   // 3
    lua_pushnil(L);
    while (lua_next(L, 1) != 0) {                                // 4: name, 5: path
        lua_pop(L, 1);
        lua_pushvalue(L, 4);
        int preloaded = lua_rawget(L, 3) != LUA_TNIL;            // preloaded since: the host's, kept loaded
        lua_pop(L, 1);
        if (!preloaded) {
            lua_pushvalue(L, 4);
            lua_pushnil(L);
            lua_rawset(L, 2);
        }
        lua_pushvalue(L, 4);
        lua_pushnil(L);
        lua_rawset(L, 1);                                        // clearing a field lua_next is at is allowed
    }
    return 0;
}

int cluashim_pforgetrequiredmodules(lua_State *L) { return protect(L, p_forgetrequiredmodules, 0, 0); }
