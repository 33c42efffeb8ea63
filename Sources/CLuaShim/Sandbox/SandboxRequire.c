// The sandbox's `require`: package.loaded, then modules the host preloaded, then `name.lua` under the module
// directory, read as every script file is (ConfinedFile.c): beneath the directory, through no symbolic link,
// a regular file with one name and of bounded size. No package.path, no C loaders.
#include "CLuaShim.h"
#include "ConfinedFile.h"
#include "../Protect.h"
#include "ReadOnlyTables.h"
#include "SandboxRequire.h"
#include "StepCharge.h"

#include <stdlib.h>

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

/// Pushes the module directory, the file's path relative to it (`screens/movie.lua`) and its full path, or
/// nothing and returns 0 when there is no directory or `name` cannot be a file's.
static int pushModulePaths(lua_State *L, const char *name) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &MODULE_DIRECTORY_KEY) != LUA_TSTRING) {
        lua_pop(L, 1);
        return 0;
    }
    if (!cluashim_validmodulename(name)) {
        lua_pop(L, 1);
        return 0;
    }
    luaL_gsub(L, name, ".", "/");
    lua_pushliteral(L, ".lua");
    lua_concat(L, 2);
    lua_pushfstring(L, "%s/%s", lua_tostring(L, -2), lua_tostring(L, -1));
    return 1;
}

/// Compiles the module file, `relative` beneath `directory`, into the function on top; its chunk name is
/// `@path`, as Lua's loadfile names it. Returns LUA_OK, or an error status with the message on top, or
/// -outcome when the file was refused. Raises nothing while the file's bytes are held.
static int loadModuleFile(lua_State *L, const char *directory, const char *relative, const char *path) {
    lua_pushfstring(L, "@%s", path);
    confinedfile_text text;
    int outcome = confinedfile_readbeneath(directory, relative, CONFINEDFILE_BEST_WAY, &text);
    if (outcome != CONFINEDFILE_OK) {
        free(text.bytes);
        lua_pop(L, 1);
        return -outcome;
    }
    // lua_load runs the parser protected and reports by status, so the bytes are freed on every path.
    int status = luaL_loadbufferx(L, text.bytes, text.count, lua_tostring(L, -1), "t");
    free(text.bytes);
    lua_remove(L, -2);
    // Compiling runs in C, unseen by the count hook: charged by size as `load` is, once nothing is held.
    cluashim_chargesteps(L, 1 + (long long)(text.count / STEP_BYTES));
    return status;
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
    if (!pushModulePaths(L, name)) {                             // directory, relative, path
        return luaL_error(L, "module '%s' not found:\n\tno field package.preload['%s']\n\tno module file", name, name);
    }
    const char *path = lua_tostring(L, -1);
    int status = loadModuleFile(L, lua_tostring(L, -3), lua_tostring(L, -2), path);
    if (status < 0) {
        return luaL_error(L, "module '%s' not found:\n\tno field package.preload['%s']\n\t%s: '%s'", name, name,
                          confinedfile_reason(-status), path);
    }
    if (status != LUA_OK) {
        return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, path, lua_tostring(L, -1));
    }
    lua_replace(L, top + 1);                                     // loader, relative, path
    lua_replace(L, top + 2);                                     // loader, path
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
/// gave a directory. A module read from a file is remembered (name → path), so the host can list the files its
/// scripts depend on and forget those modules to read them again.
int sandboxRequire(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);   // 2
    lua_pushvalue(L, 1);
    if (lua_rawget(L, 2) != LUA_TNIL && lua_toboolean(L, -1)) {
        replaceByLibraryView(L);   // a shared library: its read-only view, as the global is
        return 1;
    }
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
