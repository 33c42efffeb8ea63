// string.find, string.match, string.gmatch and string.gsub on the bounded matcher: what the sandbox gives
// scripts in place of liblua5.4's, whose matcher runs in C where the count hook never sees it, so a pattern
// such as ("a"):rep(400):find(".-.-.-b") escaped the instruction budget and the interrupt. Arguments,
// results and error messages are liblua5.4's (Lua 5.4 reference manual §6.4); every step of a match, and each
// candidate of a plain find, is charged to the instruction budget.
#include "BoundedStringSearch.h"
#include "CLuaShim.h"
#include "PatternMatcher.h"
#include "../Protect.h"

#include <ctype.h>
#include <string.h>


/// Where a search starts, 0-based, from Lua's `init`: negative counts from the end, and anything at or before
/// the start means the start. May be past the end, which the callers treat each in its own way.
static size_t startOffset(lua_Integer init, size_t length) {
    if (init > 0) return (size_t)init - 1;
    if (init == 0 || init < -(lua_Integer)length) return 0;
    return (size_t)((lua_Integer)length + init);
}

/// Whether `pattern` has none of the characters that make it more than text, so find may search it plainly.
static int isPlainText(const char *pattern, size_t length) {
    for (size_t i = 0; i < length; i++) {
        switch (pattern[i]) {
        case '^': case '$': case '*': case '+': case '?': case '.': case '(': case '[': case '%': case '-':
            return 0;
        default:
            break;
        }
    }
    return 1;
}

/// The first occurrence of `needle` in `haystack`: its first byte by memchr, then the rest compared. The steps
/// are summed here and charged in batches: the meter lives in memory, and this loop calls out on every candidate.
static const char *plainSearch(StepMeter *meter, const char *haystack, size_t haystackLength, const char *needle,
                               size_t needleLength) {
    if (needleLength == 0) return haystack;
    if (needleLength > haystackLength) return NULL;
    const long long stepsPerCandidate = 1 + (long long)(needleLength / STEP_BYTES);
    const char *last = haystack + (haystackLength - needleLength);   // the last place it could start
    const char *found = NULL;
    long long steps = 0;
    for (const char *candidate = haystack; candidate <= last; candidate++) {
        const char *next = memchr(candidate, needle[0], (size_t)(last - candidate) + 1);
        // The bytes memchr skipped are work too: a search of 64 MiB for a byte that is not there is one
        // candidate, but a million steps.
        steps += (long long)(((next != NULL ? next : last + 1) - candidate) / (ptrdiff_t)STEP_BYTES);
        if (next == NULL) break;
        candidate = next;
        steps += stepsPerCandidate;
        if (memcmp(candidate + 1, needle + 1, needleLength - 1) == 0) {
            found = candidate;
            break;
        }
        if (steps >= STEP_CHARGE_BATCH) {
            stepmeter_count(meter, steps);
            steps = 0;
        }
    }
    stepmeter_count(meter, steps);
    return found;
}

// MARK: - Captures

/// Capture `index` of the match from `s` to `e` as text (with no captures, index 0 is the whole match); NULL
/// for a position capture, whose position is then in `*position`.
static const char *captureText(PatternMatch *m, int index, const char *s, const char *e, size_t *length,
                               lua_Integer *position) {
    if (index >= m->captureCount) {
        if (index != 0) luaL_error(m->meter.L, "invalid capture index %%%d", index + 1);
        *length = (size_t)(e - s);
        return s;
    }
    const PatternCapture *capture = &m->captures[index];
    if (capture->length == PATTERN_CAPTURE_OPEN) luaL_error(m->meter.L, "unfinished capture");
    if (capture->length == PATTERN_CAPTURE_POSITION) {
        *position = (lua_Integer)(capture->start - m->subject) + 1;
        return NULL;
    }
    *length = (size_t)capture->length;
    return capture->start;
}

static void pushCapture(PatternMatch *m, int index, const char *s, const char *e) {
    size_t length = 0;
    lua_Integer position = 0;
    const char *text = captureText(m, index, s, e, &length, &position);
    if (text == NULL) lua_pushinteger(m->meter.L, position);
    else lua_pushlstring(m->meter.L, text, length);
}

/// Pushes every capture, or the whole match when there are none and `s` is given (find gives none); returns
/// how many.
static int pushCaptures(PatternMatch *m, const char *s, const char *e) {
    int count = (m->captureCount == 0 && s != NULL) ? 1 : m->captureCount;
    luaL_checkstack(m->meter.L, count, "too many captures");
    for (int i = 0; i < count; i++) pushCapture(m, i, s, e);
    return count;
}

// MARK: - find and match


/// Starts `m` on `subject` for `*pattern`, whose leading `^` is taken off: the anchor is the
/// caller's business, not the matcher's. Returns whether there was one.
static int beginMatch(PatternMatch *m, lua_State *L, const char *subject, size_t subjectLength,
                      const char **pattern, size_t patternLength) {
    int anchored = **pattern == '^';
    if (anchored) {
        (*pattern)++;
        patternLength--;
    }
    patternmatch_init(m, L, subject, subjectLength, *pattern, patternLength);
    return anchored;
}

static int findOrMatch(lua_State *L, int isFind) {
    size_t subjectLength, patternLength;
    const char *subject = luaL_checklstring(L, 1, &subjectLength);
    const char *pattern = luaL_checklstring(L, 2, &patternLength);
    size_t offset = startOffset(luaL_optinteger(L, 3, 1), subjectLength);
    if (offset > subjectLength) {
        luaL_pushfail(L);
        return 1;
    }
    if (isFind && (lua_toboolean(L, 4) || isPlainText(pattern, patternLength))) {
        StepMeter meter;
        stepmeter_start(&meter, L);
        const char *found = plainSearch(&meter, subject + offset, subjectLength - offset, pattern, patternLength);
        stepmeter_settle(&meter);
        if (found == NULL) {
            luaL_pushfail(L);
            return 1;
        }
        lua_pushinteger(L, (lua_Integer)(found - subject) + 1);
        lua_pushinteger(L, (lua_Integer)(found - subject) + (lua_Integer)patternLength);
        return 2;
    }
    PatternMatch m;
    int anchored = beginMatch(&m, L, subject, subjectLength, &pattern, patternLength);
    for (const char *s = subject + offset;; s++) {
        const char *end = patternmatch_at(&m, s, pattern);
        if (end != NULL) {
            stepmeter_settle(&m.meter);
            if (!isFind) return pushCaptures(&m, s, end);
            lua_pushinteger(L, (lua_Integer)(s - subject) + 1);
            lua_pushinteger(L, (lua_Integer)(end - subject));
            return 2 + pushCaptures(&m, NULL, NULL);
        }
        if (anchored || s >= m.subjectEnd) break;
    }
    stepmeter_settle(&m.meter);
    luaL_pushfail(L);
    return 1;
}

static int boundedFind(lua_State *L) { return findOrMatch(L, 1); }

static int boundedMatch(lua_State *L) { return findOrMatch(L, 0); }

// MARK: - gmatch

/// What a gmatch iterator keeps between calls, in a userdata beside the subject and the pattern it points
/// into (the closure's other upvalues keep them alive).
typedef struct {
    PatternMatch match;
    const char *pattern;
    const char *next;        // where the next search starts
    const char *lastEnd;     // where the last match ended; NULL before the first
} MatchIterator;

static int nextMatch(lua_State *L) {
    MatchIterator *iterator = (MatchIterator *)lua_touserdata(L, lua_upvalueindex(3));
    PatternMatch *m = &iterator->match;
    stepmeter_start(&m->meter, L);   // this call's thread, which may not be the one that made the iterator
    for (const char *s = iterator->next; s <= m->subjectEnd; s++) {
        const char *end = patternmatch_at(m, s, iterator->pattern);
        // An empty match where the last one ended is skipped, or "()" would find the same place forever.
        if (end != NULL && end != iterator->lastEnd) {
            iterator->next = iterator->lastEnd = end;
            stepmeter_settle(&m->meter);
            return pushCaptures(m, s, end);
        }
    }
    stepmeter_settle(&m->meter);
    return 0;
}

/// gmatch(s, pattern [, init]). A leading '^' is an ordinary character here, as in liblua5.4: an anchor would
/// end the iteration after one match.
static int boundedGmatch(lua_State *L) {
    size_t subjectLength, patternLength;
    const char *subject = luaL_checklstring(L, 1, &subjectLength);
    const char *pattern = luaL_checklstring(L, 2, &patternLength);
    size_t offset = startOffset(luaL_optinteger(L, 3, 1), subjectLength);
    if (offset > subjectLength) offset = subjectLength + 1;   // nothing to find, and no pointer beyond '\0'
    lua_settop(L, 2);
    MatchIterator *iterator = (MatchIterator *)lua_newuserdatauv(L, sizeof(MatchIterator), 0);
    patternmatch_init(&iterator->match, L, subject, subjectLength, pattern, patternLength);
    iterator->pattern = pattern;
    iterator->next = subject + offset;
    iterator->lastEnd = NULL;
    lua_pushcclosure(L, nextMatch, 3);
    return 1;
}

// MARK: - gsub

/// Appends the replacement string (argument 3, or a number taken as one) with `%0`–`%9` and `%%` expanded.
static void appendExpanded(PatternMatch *m, luaL_Buffer *buffer, const char *s, const char *e) {
    lua_State *L = m->meter.L;
    size_t length;
    const char *text = lua_tolstring(L, 3, &length);
    const char *end = text + length;
    stepmeter_count(&m->meter, 1 + (long long)(length / STEP_BYTES));
    const char *escape;
    while ((escape = memchr(text, '%', (size_t)(end - text))) != NULL) {
        luaL_addlstring(buffer, text, (size_t)(escape - text));
        char code = escape[1];   // the string's '\0' when the '%' is last
        if (code == '%') {
            luaL_addchar(buffer, '%');
        } else if (code == '0') {
            luaL_addlstring(buffer, s, (size_t)(e - s));
        } else if (isdigit((unsigned char)code)) {
            size_t captureLength = 0;
            lua_Integer position = 0;
            const char *capture = captureText(m, code - '1', s, e, &captureLength, &position);
            if (capture != NULL) {
                luaL_addlstring(buffer, capture, captureLength);
            } else {
                lua_pushinteger(L, position);
                luaL_addvalue(buffer);
            }
        } else {
            luaL_error(L, "invalid use of '%%' in replacement string");
        }
        text = escape + 2;
    }
    luaL_addlstring(buffer, text, (size_t)(end - text));
}

/// Appends what replaces the match from `s` to `e`; returns whether it changed anything. A table or function
/// giving false or nil keeps the match.
static int appendReplacement(PatternMatch *m, luaL_Buffer *buffer, const char *s, const char *e, int type) {
    lua_State *L = m->meter.L;
    if (type == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int count = pushCaptures(m, s, e);
        lua_call(L, count, 1);
    } else if (type == LUA_TTABLE) {
        pushCapture(m, 0, s, e);
        lua_gettable(L, 3);
    } else {
        appendExpanded(m, buffer, s, e);
        return 1;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(buffer, s, (size_t)(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(buffer);
    return 1;
}

/// gsub(s, pattern, replacement [, n]): the new string (the original one when nothing changed) and the count.
static int boundedGsub(lua_State *L) {
    size_t subjectLength, patternLength;
    const char *subject = luaL_checklstring(L, 1, &subjectLength);
    const char *pattern = luaL_checklstring(L, 2, &patternLength);
    int type = lua_type(L, 3);
    lua_Integer limit = luaL_optinteger(L, 4, (lua_Integer)subjectLength + 1);
    luaL_argexpected(L, type == LUA_TNUMBER || type == LUA_TSTRING || type == LUA_TFUNCTION || type == LUA_TTABLE, 3,
                     "string/function/table");
    luaL_Buffer buffer;
    luaL_buffinit(L, &buffer);
    PatternMatch m;
    int anchored = beginMatch(&m, L, subject, subjectLength, &pattern, patternLength);
    const char *s = subject, *lastEnd = NULL;
    lua_Integer count = 0;
    int changed = 0;
    while (count < limit) {
        const char *end = patternmatch_at(&m, s, pattern);
        if (end != NULL && end != lastEnd) {   // not an empty match where the last one ended
            count++;
            changed |= appendReplacement(&m, &buffer, s, end, type);
            s = lastEnd = end;
        } else if (s < m.subjectEnd) {
            luaL_addchar(&buffer, *s++);
        } else {
            break;
        }
        if (anchored) break;
    }
    stepmeter_settle(&m.meter);
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&buffer, s, (size_t)(m.subjectEnd - s));
        luaL_pushresult(&buffer);
    }
    lua_pushinteger(L, count);
    return 2;
}

// MARK: - Installing

void boundedsearch_install(lua_State *L, int index) {
    static const luaL_Reg functions[] = {
        {"find", boundedFind}, {"match", boundedMatch}, {"gmatch", boundedGmatch}, {"gsub", boundedGsub}, {NULL, NULL},
    };
    index = lua_absindex(L, index);
    for (const luaL_Reg *function = functions; function->name != NULL; function++) {
        lua_pushcfunction(L, function->func);
        lua_setfield(L, index, function->name);
    }
}

static int p_boundedpatternfunctions(lua_State *L) {
    lua_createtable(L, 0, 4);
    boundedsearch_install(L, -1);
    return 1;
}

int cluashim_pboundedpatternfunctions(lua_State *L) { return protect(L, p_boundedpatternfunctions, 0, 1); }
