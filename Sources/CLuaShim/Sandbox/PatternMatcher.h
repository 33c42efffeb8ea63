#ifndef PORTOLAN_CLUASHIM_PATTERN_MATCHER_H
#define PORTOLAN_CLUASHIM_PATTERN_MATCHER_H

// Private to the shim: Lua 5.4's pattern language, matched by a backtracking matcher whose every step is
// charged to the state's instruction budget (StepCharge.h), so that a pattern cannot escape the limits the
// count hook puts on Lua code. Results, and the errors raised for malformed patterns, are those of liblua5.4,
// found at the same moment of the match (a malformed piece the match never reaches raises nothing).

#include <stddef.h>
#include <lua.h>
#include <lauxlib.h>

#include "StepCharge.h"

/// The most captures a pattern may hold: liblua5.4's LUA_MAXCAPTURES, which Debian builds at its default
/// (the header that defines it is not installed).
#define PATTERN_MAXIMUM_CAPTURES 32

/// A capture's length while its ')' has not been matched yet.
#define PATTERN_CAPTURE_OPEN (-1)
/// The length of a position capture, `()`.
#define PATTERN_CAPTURE_POSITION (-2)

typedef struct {
    const char *start;
    ptrdiff_t length;   // bytes, or PATTERN_CAPTURE_OPEN / PATTERN_CAPTURE_POSITION
} PatternCapture;

/// One subject, one pattern, and what an attempt at one position of the subject has found so far.
/// Lives on the C stack or in a Lua userdata: nothing in it needs freeing when an error unwinds it.
typedef struct {
    StepMeter meter;               // its thread is where errors are raised
    const char *subject;
    const char *subjectEnd;
    const char *patternEnd;
    int nestingLeft;               // continuations still allowed to nest before "pattern too complex"
    int captureCount;
    PatternCapture captures[PATTERN_MAXIMUM_CAPTURES];
} PatternMatch;

/// Binds a match to a subject and a pattern, which must stay alive (and NUL-terminated at their ends, as Lua
/// strings are) while it is used. `pattern` excludes a leading '^' the caller treats as an anchor.
void patternmatch_init(PatternMatch *m, lua_State *L, const char *subject, size_t subjectLength,
                       const char *pattern, size_t patternLength);

/// Tries the pattern from `p` at subject position `s`, after forgetting the captures of the previous try:
/// the end of the match, or NULL. Call stepmeter_settle(&m->meter) before returning to Lua.
const char *patternmatch_at(PatternMatch *m, const char *s, const char *p);

#endif
