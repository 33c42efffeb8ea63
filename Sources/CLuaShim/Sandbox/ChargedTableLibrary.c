// The table library's functions whose loops run in C, charged as they go: one step per element moved,
// shifted or joined, and one per comparison of a sort.
//
// A charge taken up front, from the arguments, cannot be invisible here: it must read the list's length
// before the function does (a second `__len` call that a proxy sees), and it must refuse a huge range
// before the first element is touched, where Lua's own `table.move` would have met a metamethod's error
// at that first element. So the loops that can run long without running Lua (`insert` at a position,
// `remove`, `move`, `concat`) are written here, each giving what the reference manual and liblua5.4 give:
// the same accesses in the same order, the same checks in the same order and the same messages
// (SandboxParityTests and Lua's own sort.lua and nextvar.lua, run as scenarios, compare them). `unpack`
// and `sort` stay liblua5.4's: `unpack`'s work is bounded by Lua's stack, so it is charged once it is
// done, and `sort` does a bounded amount of work per comparison, so comparisons the hook cannot see are
// charged.
#include "ChargedTableLibrary.h"
#include "StepCharge.h"

#include <lauxlib.h>

/// What a list argument must allow, as Lua's table functions check it: a table does everything; any other
/// value needs a metatable with the matching metamethods.
enum ListAccess { READS = 1, WRITES = 2, LENGTH = 4 };

/// Whether the metatable on top of the stack has `field` (a raw look-up: nothing is called).
static int metatableHas(lua_State *L, const char *field) {
    lua_pushstring(L, field);
    int found = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 1);
    return found;
}

/// Raises Lua's own "bad argument #N to 'F' (table expected, got T)" unless the value at `argument` is a
/// table or has the metamethods `access` needs.
static void checkList(lua_State *L, int argument, int access) {
    if (lua_type(L, argument) == LUA_TTABLE) return;
    if (lua_getmetatable(L, argument)) {
        int allowed = (!(access & READS) || metatableHas(L, "__index")) &&
                      (!(access & WRITES) || metatableHas(L, "__newindex")) &&
                      (!(access & LENGTH) || metatableHas(L, "__len"));
        lua_pop(L, 1);
        if (allowed) return;
    }
    luaL_checktype(L, argument, LUA_TTABLE);
}

/// The list's length, its `__len` called once, as the function itself reads it.
static lua_Integer listLength(lua_State *L, int argument, int access) {
    checkList(L, argument, access | LENGTH);
    return luaL_len(L, argument);
}

/// Copies list `from`[source] to list `to`[destination]: one element, one step.
static void copyElement(StepMeter *meter, int from, lua_Integer source, int to, lua_Integer destination) {
    stepmeter_count(meter, 1);
    lua_geti(meter->L, from, source);
    lua_seti(meter->L, to, destination);
}

/// table.insert(list, [pos,] value). Only the form with a position shifts elements; the others run as
/// liblua5.4's.
int cluashim_chargedinsert(lua_State *L, lua_CFunction original) {
    if (lua_gettop(L) != 3) return original(L);
    lua_Integer firstEmpty = luaL_intop(+, listLength(L, 1, READS | WRITES), 1);
    lua_Integer position = luaL_checkinteger(L, 2);
    luaL_argcheck(L, (lua_Unsigned)position - 1u < (lua_Unsigned)firstEmpty, 2, "position out of bounds");
    StepMeter meter;
    stepmeter_start(&meter, L);
    for (lua_Integer i = firstEmpty; i > position; i--) copyElement(&meter, 1, i - 1, 1, i);
    stepmeter_settle(&meter);
    lua_seti(L, 1, position);   // the value, argument 3, is on top again
    return 0;
}

/// table.remove(list [, pos]): returns list[pos] and shifts the elements after it down.
int cluashim_chargedremove(lua_State *L) {
    lua_Integer size = listLength(L, 1, READS | WRITES);
    lua_Integer position = luaL_optinteger(L, 2, size);
    if (position != size) {
        // liblua5.4 names argument 1 here, and so must its double.
        luaL_argcheck(L, (lua_Unsigned)position - 1u <= (lua_Unsigned)size, 1, "position out of bounds");
    }
    lua_geti(L, 1, position);
    StepMeter meter;
    stepmeter_start(&meter, L);
    for (; position < size; position++) copyElement(&meter, 1, position + 1, 1, position);
    stepmeter_settle(&meter);
    lua_pushnil(L);
    lua_seti(L, 1, position);
    return 1;
}

/// table.move(a1, f, e, t [, a2]): a1[f..e] to a2[t..], copied backwards when the ranges overlap in a way
/// a forward copy would overwrite what it has still to read.
int cluashim_chargedmove(lua_State *L) {
    lua_Integer first = luaL_checkinteger(L, 2);
    lua_Integer last = luaL_checkinteger(L, 3);
    lua_Integer target = luaL_checkinteger(L, 4);
    int destination = lua_isnoneornil(L, 5) ? 1 : 5;
    checkList(L, 1, READS);
    checkList(L, destination, WRITES);
    if (last >= first) {
        luaL_argcheck(L, first > 0 || last < LUA_MAXINTEGER + first, 3, "too many elements to move");
        lua_Integer count = last - first + 1;
        luaL_argcheck(L, target <= LUA_MAXINTEGER - count + 1, 4, "destination wrap around");
        int forwards = target > last || target <= first ||
                       (destination != 1 && !lua_compare(L, 1, destination, LUA_OPEQ));
        StepMeter meter;
        stepmeter_start(&meter, L);
        if (forwards) {
            for (lua_Integer i = 0; i < count; i++) copyElement(&meter, 1, first + i, destination, target + i);
        } else {
            for (lua_Integer i = count - 1; i >= 0; i--) copyElement(&meter, 1, first + i, destination, target + i);
        }
        stepmeter_settle(&meter);
    }
    lua_pushvalue(L, destination);
    return 1;
}

/// Adds list[index] to the buffer, charged by its bytes; it must be a string or a number.
static void addElement(lua_State *L, StepMeter *meter, luaL_Buffer *buffer, lua_Integer index) {
    lua_geti(L, 1, index);
    if (!lua_isstring(L, -1)) {
        luaL_error(L, "invalid value (%s) at index %I in table for 'concat'", luaL_typename(L, -1), (LUAI_UACINT)index);
    }
    stepmeter_count(meter, 1 + (long long)(lua_rawlen(L, -1) / (size_t)STEP_BYTES));
    luaL_addvalue(buffer);
}

/// table.concat(list [, sep [, i [, j]]]): list[i] .. sep .. ... .. list[j]. The length is read even when
/// j is given, as liblua5.4 reads it.
int cluashim_chargedconcat(lua_State *L) {
    lua_Integer last = listLength(L, 1, READS);
    size_t separatorLength = 0;
    const char *separator = luaL_optlstring(L, 2, "", &separatorLength);
    lua_Integer index = luaL_optinteger(L, 3, 1);
    last = luaL_optinteger(L, 4, last);
    StepMeter meter;
    stepmeter_start(&meter, L);
    luaL_Buffer buffer;
    luaL_buffinit(L, &buffer);
    for (; index < last; index++) {
        addElement(L, &meter, &buffer, index);
        luaL_addlstring(&buffer, separator, separatorLength);
        stepmeter_count(&meter, (long long)(separatorLength / (size_t)STEP_BYTES));
    }
    if (index == last) addElement(L, &meter, &buffer, index);
    stepmeter_settle(&meter);
    luaL_pushresult(&buffer);
    return 1;
}

/// table.unpack(list [, i [, j]]): liblua5.4's, charged one step per value once it has returned. It
/// refuses more values than Lua's stack holds before any work, so what runs uncharged is at most a few
/// milliseconds of copying.
int cluashim_chargedunpack(lua_State *L, lua_CFunction original) {
    int results = original(L);
    cluashim_chargesteps(L, results);
    return results;
}

/// The comparator table.sort gets in place of the script's: one step, then the script's comparator
/// (upvalue 1), whose result it returns.
static int chargedComparator(lua_State *L) {
    cluashim_chargesteps(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/// The comparator table.sort gets when the script gives none: `<`, charged by what it compares, so that
/// sorting large strings (each comparison a strcoll over both) is charged as it goes.
static int chargedLessThan(lua_State *L) {
    long long steps = 1;
    if (lua_type(L, 1) == LUA_TSTRING && lua_type(L, 2) == LUA_TSTRING) {
        size_t shorter = lua_rawlen(L, 1) < lua_rawlen(L, 2) ? lua_rawlen(L, 1) : lua_rawlen(L, 2);
        steps += (long long)(shorter / (size_t)STEP_BYTES);
    }
    cluashim_chargesteps(L, steps);
    lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
    return 1;
}

/// table.sort(list [, comp]): liblua5.4's, with every comparison charged. A sort does a bounded amount of
/// work between two comparisons, so the comparisons bound it all. A Lua comparator runs instructions the
/// hook counts at each call, so it is called as it is, at full speed; a C one (`math.max`, `rawequal`) and
/// the default `<` are charged a step a call. A comparator that is not a function is left for liblua5.4
/// to refuse, and so is a missing list.
int cluashim_chargedsort(lua_State *L, lua_CFunction original) {
    if (lua_type(L, 1) == LUA_TNONE) return original(L);
    if (lua_iscfunction(L, 2)) {
        lua_pushvalue(L, 2);
        lua_pushcclosure(L, chargedComparator, 1);
        lua_replace(L, 2);
    } else if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_pushcfunction(L, chargedLessThan);
    }
    return original(L);
}
