// The standard library functions whose work grows with their arguments, charged by the size of that work.
// liblua5.4 runs each of them in C, inside one VM instruction, where the count hook never looks: without a
// charge, `string.rep("", math.maxinteger)`, a `table.move` over a huge range, `table.insert(t, 1, x)` on
// millions of items or `utf8.len` of 64 MiB in a loop ran for tens of seconds past the instruction budget,
// the interrupt (Ctrl-C, a scenario's time limit) and a handler's time limit.
//
// A string function's work is known from its arguments, so its wrapper charges it (which polls the
// interrupt and the deadline, and raises past the budget) and then runs liblua5.4's own function in its own
// frame: a direct call, not lua_call, so that its argument errors name the function and the script's line
// as they always did. The table functions are charged as their loops run (ChargedTableLibrary.c). One step
// weighs about one Lua instruction: one element a table function moves, or STEP_BYTES bytes a string
// function reads or writes.
#include "ChargedLibrary.h"
#include "ChargedTableLibrary.h"
#include "CLuaShim.h"
#include "StepCharge.h"

#include <string.h>


/// Turns of string.rep's loop to a step: each copies one piece, a fraction of a Lua instruction's time.
static const lua_Integer REP_TURNS_PER_STEP = 8;

/// Charges `steps`, which may raise (StepCharge.h).
static void charge(lua_State *L, lua_Integer steps) {
    if (steps > 0) cluashim_chargesteps(L, (long long)steps);
}

// MARK: - What each call costs

/// Any string function: the bytes of its string arguments, plus one step per argument.
static void chargeStringBytes(lua_State *L) {
    lua_Integer steps = 1;
    for (int i = 1, n = lua_gettop(L); i <= n; i++) {
        if (lua_type(L, i) == LUA_TSTRING) steps += (lua_Integer)(lua_rawlen(L, i) / (size_t)STEP_BYTES);
        steps++;
    }
    charge(L, steps);
}

/// string.rep(s, n [, sep]): the bytes it writes, and its loop turns (a short memcpy each, REP_TURNS_PER_STEP
/// to a step). An empty result is given at once: repeating nothing is no work, however many times.
static int chargeRep(lua_State *L) {
    size_t length = 0, separator = 0;
    luaL_checklstring(L, 1, &length);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &separator);
    if (n > 0 && length + separator == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    // Past this the result could not be allocated, and liblua5.4 says "resulting string too large".
    if (n > 0 && (lua_Unsigned)n <= (lua_Unsigned)(LUA_MAXINTEGER / (lua_Integer)(length + separator))) {
        charge(L, n / REP_TURNS_PER_STEP + n * (lua_Integer)(length + separator) / (lua_Integer)STEP_BYTES);
    }
    return 0;
}

/// collectgarbage("collect" | "step"): a collection walks the whole heap, in C, with hooks off.
static void chargeCollection(lua_State *L) {
    const char *option = luaL_optstring(L, 1, "collect");
    if (strcmp(option, "collect") == 0 || strcmp(option, "step") == 0) {
        charge(L, (lua_Integer)(cluashim_memoryused(L) / (size_t)STEP_BYTES));
    }
}

// MARK: - The wrappers

enum Cost { STRING_BYTES, REP, INSERT, REMOVE, MOVE, CONCAT, UNPACK, SORT, COLLECTION };

/// Charges a string function, `collectgarbage` or `load` by its arguments; returns the number of results
/// when the call needs no more work (string.rep of nothing), else -1.
static int chargeByArguments(lua_State *L, enum Cost cost) {
    switch (cost) {
    case REP: return chargeRep(L) > 0 ? 1 : -1;
    case COLLECTION: chargeCollection(L); break;
    default: chargeStringBytes(L); break;
    }
    return -1;
}

/// Upvalues: the library's own function (a C function without upvalues), and its cost. Every function
/// runs in this frame: its errors name the function and the script's line.
static int chargedFunction(lua_State *L) {
    lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
    enum Cost cost = (enum Cost)lua_tointeger(L, lua_upvalueindex(2));
    switch (cost) {
    case INSERT: return cluashim_chargedinsert(L, original);
    case REMOVE: return cluashim_chargedremove(L);
    case MOVE: return cluashim_chargedmove(L);
    case CONCAT: return cluashim_chargedconcat(L);
    case UNPACK: return cluashim_chargedunpack(L, original);
    case SORT: return cluashim_chargedsort(L, original);
    default: {
        int results = chargeByArguments(L, cost);
        return results >= 0 ? results : original(L);
    }
    }
}

void chargeLibraryCalls(lua_State *L) {
    static const struct {
        const char *library;
        const char *name;
        enum Cost cost;
    } charged[] = {
        {LUA_STRLIBNAME, "rep", REP},           {LUA_STRLIBNAME, "reverse", STRING_BYTES},
        {LUA_STRLIBNAME, "upper", STRING_BYTES}, {LUA_STRLIBNAME, "lower", STRING_BYTES},
        {LUA_STRLIBNAME, "sub", STRING_BYTES},   {LUA_STRLIBNAME, "byte", STRING_BYTES},
        {LUA_STRLIBNAME, "char", STRING_BYTES},  {LUA_STRLIBNAME, "format", STRING_BYTES},
        {LUA_STRLIBNAME, "pack", STRING_BYTES},  {LUA_STRLIBNAME, "unpack", STRING_BYTES},
        {LUA_STRLIBNAME, "packsize", STRING_BYTES},
        {LUA_UTF8LIBNAME, "len", STRING_BYTES},  {LUA_UTF8LIBNAME, "codepoint", STRING_BYTES},
        {LUA_UTF8LIBNAME, "char", STRING_BYTES}, {LUA_UTF8LIBNAME, "offset", STRING_BYTES},
        {LUA_TABLIBNAME, "insert", INSERT},      {LUA_TABLIBNAME, "remove", REMOVE},
        {LUA_TABLIBNAME, "move", MOVE},          {LUA_TABLIBNAME, "concat", CONCAT},
        {LUA_TABLIBNAME, "unpack", UNPACK},      {LUA_TABLIBNAME, "sort", SORT},
        {NULL, "collectgarbage", COLLECTION},   {NULL, "load", STRING_BYTES},   // compiling runs unseen too
    };
    for (size_t i = 0; i < sizeof charged / sizeof charged[0]; i++) {
        if (charged[i].library != NULL) lua_getglobal(L, charged[i].library);
        else lua_pushglobaltable(L);
        lua_getfield(L, -1, charged[i].name);
        if (lua_tocfunction(L, -1) == NULL || lua_getupvalue(L, -1, 1) != NULL) {
            luaL_error(L, "cannot charge %s: not a C function without upvalues", charged[i].name);
        }
        lua_pushinteger(L, (lua_Integer)charged[i].cost);
        lua_pushcclosure(L, chargedFunction, 2);
        lua_setfield(L, -2, charged[i].name);
        lua_pop(L, 1);
    }
}
