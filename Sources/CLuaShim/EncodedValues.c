// Pushing many values under one lua_pcall: Swift encodes them (LuaValueEncoding.swift), and
// p_pushencoded, run protected, decodes and pushes them all. Pushing them one by one would take a
// protective call per string or table, since each allocation may raise.
#include "CLuaShim.h"
#include "Protect.h"
#include <lauxlib.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    const unsigned char *next;
    const unsigned char *end;
} reader;

// Tags of the encoding; keep in step with LuaValueEncoding.swift.
enum { TAG_NIL = 0, TAG_FALSE = 1, TAG_TRUE = 2, TAG_INTEGER = 3, TAG_NUMBER = 4, TAG_STRING = 5, TAG_TABLE = 6, TAG_REFERENCE = 7 };

// The decoder trusts no length: a malformed buffer (a bug on the Swift side) raises, never overreads.
static const unsigned char *take(lua_State *L, reader *r, size_t count) {
    if ((size_t)(r->end - r->next) < count) luaL_error(L, "malformed encoded values");
    const unsigned char *start = r->next;
    r->next += count;
    return start;
}

static uint64_t take_u64(lua_State *L, reader *r) {
    uint64_t value;
    memcpy(&value, take(L, r, sizeof value), sizeof value);
    return value;
}

static void push_value(lua_State *L, reader *r, int depth);

static void push_table(lua_State *L, reader *r, int depth) {
    uint64_t narr = take_u64(L, r), nrec = take_u64(L, r), pairs = take_u64(L, r);
    if (narr > INT32_MAX || nrec > INT32_MAX) luaL_error(L, "table too large");
    luaL_checkstack(L, 3, "encoded table");
    lua_createtable(L, (int)narr, (int)nrec);
    for (uint64_t i = 0; i < pairs; i++) {
        push_value(L, r, depth + 1);
        push_value(L, r, depth + 1);
        lua_rawset(L, -3);   // raises on a nil or NaN key
    }
}

static void push_value(lua_State *L, reader *r, int depth) {
    if (depth > CLUASHIM_MAX_ENCODED_DEPTH) luaL_error(L, "encoded values nested too deeply");
    unsigned char tag = *take(L, r, 1);
    switch (tag) {
    case TAG_NIL: lua_pushnil(L); break;
    case TAG_FALSE: lua_pushboolean(L, 0); break;
    case TAG_TRUE: lua_pushboolean(L, 1); break;
    case TAG_INTEGER: {
        int64_t value;
        memcpy(&value, take(L, r, sizeof value), sizeof value);
        lua_pushinteger(L, (lua_Integer)value);
        break;
    }
    case TAG_NUMBER: {
        double value;
        memcpy(&value, take(L, r, sizeof value), sizeof value);
        lua_pushnumber(L, value);
        break;
    }
    case TAG_STRING: {
        uint64_t length = take_u64(L, r);
        lua_pushlstring(L, (const char *)take(L, r, (size_t)length), (size_t)length);
        break;
    }
    case TAG_TABLE: push_table(L, r, depth); break;
    case TAG_REFERENCE: {
        int64_t reference;
        memcpy(&reference, take(L, r, sizeof reference), sizeof reference);
        lua_rawgeti(L, LUA_REGISTRYINDEX, (lua_Integer)reference);
        break;
    }
    default: luaL_error(L, "malformed encoded values (tag %d)", (int)tag);
    }
}

static int p_pushencoded(lua_State *L) {
    reader r = { (const unsigned char *)lua_touserdata(L, 1), NULL };
    r.end = r.next + (size_t)lua_tointeger(L, 2);
    lua_Integer count = lua_tointeger(L, 3);
    lua_settop(L, 0);
    luaL_checkstack(L, (int)count + 4, "encoded values");
    for (lua_Integer i = 0; i < count; i++) push_value(L, &r, 0);
    return (int)count;
}

int cluashim_ppushencoded(lua_State *L, const unsigned char *bytes, size_t length, int count) {
    lua_pushlightuserdata(L, (void *)bytes);
    lua_pushinteger(L, (lua_Integer)length);
    lua_pushinteger(L, count);
    return protect(L, p_pushencoded, 3, count);
}
