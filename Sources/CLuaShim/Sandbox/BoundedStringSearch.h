#ifndef PORTOLAN_CLUASHIM_BOUNDED_STRING_SEARCH_H
#define PORTOLAN_CLUASHIM_BOUNDED_STRING_SEARCH_H

// Private to the shim: string.find, match, gmatch and gsub on the bounded matcher (PatternMatcher.h).

#include <lua.h>

/// Sets `find`, `match`, `gmatch` and `gsub` of the table at `index` to the bounded functions.
void boundedsearch_install(lua_State *L, int index);

#endif
