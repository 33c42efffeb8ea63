// The standard library functions whose work grows with their arguments, charged by the size of that work.
// liblua5.4 runs each of them in C, inside one VM instruction, where the count hook never looks: without a
// charge, `string.rep("", math.maxinteger)`, a `table.move` over a huge range, `table.insert(t, 1, x)` on
// millions of items or `utf8.len` of 64 MiB in a loop ran for tens of seconds past the instruction budget,
// the interrupt (Ctrl-C, a scenario's time limit) and a handler's time limit.
//
// Each wrapper works out the steps the call is about to take from its arguments, charges them (which polls
// the interrupt and the deadline, and raises past the budget), refuses the degenerate cases outright, and
// then runs liblua5.4's own function in its own frame: a direct call, not lua_call, so that its argument
// errors name the function and the script's line as they always did. One step weighs about one Lua
// instruction: one element a table function moves, or STEP_BYTES bytes a string function reads or writes.
#include "ChargedLibrary.h"
#include "CLuaShim.h"
#include "StepCharge.h"

#include <string.h>


/// Turns of string.rep's loop to a step: each copies one piece, a fraction of a Lua instruction's time.
static const lua_Integer REP_TURNS_PER_STEP = 8;

/// The most elements one table call may handle. A state's memory cap holds far fewer (256 MiB is 16M array
/// slots), so only a degenerate call reaches it: a range of nils, or a `__len` that lies.
static const lua_Integer MAXIMUM_ELEMENTS = (lua_Integer)1 << 26;

/// Charges `steps`, which may raise (StepCharge.h).
static void charge(lua_State *L, lua_Integer steps) {
    if (steps > 0) cluashim_chargesteps(L, (long long)steps);
}

/// Charges moving `count` elements, or refuses it when no real table could hold them.
static void chargeElements(lua_State *L, lua_Integer count, const char *function) {
    if (count > MAXIMUM_ELEMENTS) {
        luaL_error(L, "%s: %I elements are more than one call may handle (%I)", function, count, MAXIMUM_ELEMENTS);
    }
    charge(L, count);
}

/// Whether the list argument at `index` has a length the library function can take: a table, or a value
/// whose metatable has `__len`. Anything else the function itself refuses at once, with its own message
/// ("bad argument #1 to 'concat' (table expected, got number)"), so it is handed over uncharged.
static int hasLength(lua_State *L, int index) {
    if (lua_type(L, index) == LUA_TTABLE) return 1;
    if (luaL_getmetafield(L, index, "__len") == LUA_TNIL) return 0;
    lua_pop(L, 1);
    return 1;
}

/// The elements from `first` to `last`, 0 when none, without overflow.
static lua_Integer rangeCount(lua_Integer first, lua_Integer last) {
    if (last < first) return 0;
    lua_Unsigned count = (lua_Unsigned)last - (lua_Unsigned)first + 1u;
    return count > (lua_Unsigned)LUA_MAXINTEGER || count == 0 ? LUA_MAXINTEGER : (lua_Integer)count;
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

/// table.insert(t, [pos,] v): shifts the elements from pos to the end up by one.
static void chargeInsert(lua_State *L) {
    if (lua_gettop(L) != 3 || !hasLength(L, 1)) {
        charge(L, 1);
        return;
    }
    lua_Integer end = luaL_len(L, 1) + 1;
    lua_Integer position = luaL_checkinteger(L, 2);
    chargeElements(L, rangeCount(position, end), "table.insert");
}

/// table.remove(t [, pos]): shifts the elements after pos down by one.
static void chargeRemove(lua_State *L) {
    if (!hasLength(L, 1)) return;
    lua_Integer size = luaL_len(L, 1);
    lua_Integer position = luaL_optinteger(L, 2, size);
    chargeElements(L, rangeCount(position, size), "table.remove");
}

/// table.move(a1, f, e, t [, a2]): e - f + 1 elements.
static void chargeMove(lua_State *L) {
    lua_Integer first = luaL_checkinteger(L, 2), last = luaL_checkinteger(L, 3);
    chargeElements(L, rangeCount(first, last), "table.move");
}

/// The most values a C function may return: Lua's stack limit (LUAI_MAXSTACK in luaconf.h, not exported).
/// table.unpack refuses more itself, at once, as "too many results to unpack".
static const lua_Integer STACK_LIMIT = 1000000;

/// The elements from i to j of table.concat(t [, sep [, i [, j]]]) or table.unpack(t [, i [, j]]),
/// i at `firstArgument`.
static lua_Integer rangeOfList(lua_State *L, int firstArgument) {
    lua_Integer first = luaL_optinteger(L, firstArgument, 1);
    lua_Integer last = lua_isnoneornil(L, firstArgument + 1) ? luaL_len(L, 1) : luaL_checkinteger(L, firstArgument + 1);
    return rangeCount(first, last);
}

/// table.concat(t [, sep [, i [, j]]]): the elements from i to j.
static void chargeConcat(lua_State *L) {
    if (hasLength(L, 1)) chargeElements(L, rangeOfList(L, 3), "table.concat");
}

/// table.unpack(t [, i [, j]]): the elements from i to j, unless they are more than Lua's stack holds,
/// which table.unpack refuses itself before any work. (Lua's own unpack takes any list argument.)
static void chargeUnpack(lua_State *L) {
    lua_Integer count = rangeOfList(L, 2);
    if (count < STACK_LIMIT) chargeElements(L, count, "table.unpack");
}

/// The comparator table.sort gets when the script gives none: `<`, charged by what it compares, so that
/// sorting large strings (each comparison a strcoll over both) is charged as it goes.
static int chargedLessThan(lua_State *L) {
    lua_Integer steps = 1;
    if (lua_type(L, 1) == LUA_TSTRING && lua_type(L, 2) == LUA_TSTRING) {
        size_t shorter = lua_rawlen(L, 1) < lua_rawlen(L, 2) ? lua_rawlen(L, 1) : lua_rawlen(L, 2);
        steps += (lua_Integer)(shorter / (size_t)STEP_BYTES);
    }
    charge(L, steps);
    lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
    return 1;
}

/// table.sort(t [, comp]): the list's length up front (a C comparator runs no Lua for the hook to count),
/// and each comparison when the script gives no comparator.
static void chargeSort(lua_State *L) {
    if (!hasLength(L, 1)) return;
    chargeElements(L, luaL_len(L, 1), "table.sort");
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_pushcfunction(L, chargedLessThan);
    }
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

/// Charges the call on the stack by its cost; returns the number of results when the call needs no more
/// work (string.rep of nothing), else -1.
static int chargeCall(lua_State *L, enum Cost cost) {
    switch (cost) {
    case STRING_BYTES: chargeStringBytes(L); break;
    case REP: return chargeRep(L) > 0 ? 1 : -1;
    case INSERT: chargeInsert(L); break;
    case REMOVE: chargeRemove(L); break;
    case MOVE: chargeMove(L); break;
    case CONCAT: chargeConcat(L); break;
    case UNPACK: chargeUnpack(L); break;
    case SORT: chargeSort(L); break;
    case COLLECTION: chargeCollection(L); break;
    }
    return -1;
}

/// Upvalues: the library's own function (a C function without upvalues), and its cost.
static int chargedFunction(lua_State *L) {
    int results = chargeCall(L, (enum Cost)lua_tointeger(L, lua_upvalueindex(2)));
    if (results >= 0) return results;
    lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
    return original(L);   // in this frame: its errors name the function and the script's line
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
