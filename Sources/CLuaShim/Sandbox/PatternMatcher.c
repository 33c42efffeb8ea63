// Lua 5.4's pattern language (reference manual §6.4.1), matched by backtracking as liblua5.4 does, so that
// results, errors and the nesting limit agree with it, but with every step counted: each test of one
// character against a single-character class, each continuation tried (every backtrack starts one), each
// byte a %b scans and each 64 bytes a back-reference compares. The meter charges them to the instruction
// budget in batches (StepCharge.h), which also polls the interrupt.
//
// Why the structure follows liblua5.4's order of work: a malformed piece raises only when the match reaches
// it ("a[" on an empty subject is no error), and "pattern too complex" depends on how continuations nest.
// The pattern and the subject are Lua strings, so reading one byte past either end reads their '\0'.
#include "PatternMatcher.h"

#include <ctype.h>
#include <string.h>

enum { ESCAPE = '%' };

/// How deeply continuations may nest before the pattern is "too complex": liblua5.4's limit (MAXCCALLS),
/// which also bounds the C stack this recursion uses.
static const int MAXIMUM_NESTING = 200;

/// Back-reference comparisons are charged one step per this many bytes (plus one).
static const ptrdiff_t BYTES_PER_STEP = 64;

static const char *matchFrom(PatternMatch *m, const char *s, const char *p);

static inline void countSteps(PatternMatch *m, long long steps) { stepmeter_count(&m->meter, steps); }

static inline lua_State *stateOf(PatternMatch *m) { return m->meter.L; }

void patternmatch_init(PatternMatch *m, lua_State *L, const char *subject, size_t subjectLength,
                       const char *pattern, size_t patternLength) {
    stepmeter_start(&m->meter, L);
    m->subject = subject;
    m->subjectEnd = subject + subjectLength;
    m->patternEnd = pattern + patternLength;
    m->nestingLeft = MAXIMUM_NESTING;
    m->captureCount = 0;
}

const char *patternmatch_at(PatternMatch *m, const char *s, const char *p) {
    m->captureCount = 0;
    m->nestingLeft = MAXIMUM_NESTING;
    return matchFrom(m, s, p);
}

// MARK: - Single-character classes

/// Where the single-character class starting at `p` ends: after `x`, `%x` or a whole set `[...]`.
static const char *classEnd(PatternMatch *m, const char *p) {
    char first = *p++;
    if (first == ESCAPE) {
        if (p == m->patternEnd) luaL_error(stateOf(m), "malformed pattern (ends with '%%')");
        return p + 1;
    }
    if (first != '[') return p;
    if (*p == '^') p++;
    // The first member is taken whatever it is, so "[]]" and "[^]]" are sets holding ']'.
    do {
        if (p == m->patternEnd) luaL_error(stateOf(m), "malformed pattern (missing ']')");
        char member = *p++;
        if (member == ESCAPE && p < m->patternEnd) p++;   // "%]" is a member, not the end
    } while (*p != ']');
    return p + 1;
}

/// Whether byte `c` belongs to `%letter`. An upper-case class letter is the complement of its lower-case
/// class; any other character after '%' stands for itself. (`letter | 0x20` is tolower for ASCII letters and
/// turns nothing else into one, without a call into the C library on this hottest path.)
static int inClass(int c, int letter) {
    int member;
    switch (letter | 0x20) {
    case 'a': member = isalpha(c); break;
    case 'c': member = iscntrl(c); break;
    case 'd': member = isdigit(c); break;
    case 'g': member = isgraph(c); break;
    case 'l': member = islower(c); break;
    case 'p': member = ispunct(c); break;
    case 's': member = isspace(c); break;
    case 'u': member = isupper(c); break;
    case 'w': member = isalnum(c); break;
    case 'x': member = isxdigit(c); break;
    case 'z': member = c == 0; break;   // Lua 5.1's class for '\0', undocumented since 5.2 but still honoured
    default: return letter == c;
    }
    return letter <= 'Z' ? !member : member != 0;   // a class letter here: 'A'-'Z' or 'a'-'z'
}

/// Whether byte `c` belongs to the set whose '[' is at `open` and whose closing ']' is at `close`.
static int inSet(int c, const char *open, const char *close) {
    int wanted = 1;
    const char *p = open + 1;
    if (*p == '^') {
        wanted = 0;
        p++;
    }
    for (; p < close; p++) {
        if (*p == ESCAPE) {
            p++;
            if (inClass(c, (unsigned char)*p)) return wanted;
        } else if (p[1] == '-' && p + 2 < close) {
            if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) return wanted;
            p += 2;
        } else if ((unsigned char)*p == c) {
            return wanted;
        }
    }
    return !wanted;
}

/// Whether the class from `p` to `ep` matches the subject byte at `s` (nothing matches at the end). One step,
/// which the caller counts.
static int classMatches(PatternMatch *m, const char *s, const char *p, const char *ep) {
    if (s >= m->subjectEnd) return 0;
    int c = (unsigned char)*s;
    switch (*p) {
    case '.': return 1;
    case ESCAPE: return inClass(c, (unsigned char)p[1]);
    case '[': return inSet(c, p, ep - 1);
    default: return (unsigned char)*p == c;
    }
}

// MARK: - Repetition

/// `x*` (from `s`) and `x+` (from the byte after the first `x`): as many as match, then fewer, one at a time,
/// until the rest of the pattern (after `ep`, the quantifier) matches.
static const char *matchGreedy(PatternMatch *m, const char *s, const char *p, const char *ep) {
    ptrdiff_t taken = 0;
    while (classMatches(m, s + taken, p, ep)) taken++;
    // Counted once the run is known: one scan is bounded by the subject, and the count is off the hot loop.
    countSteps(m, taken + 1);
    for (; taken >= 0; taken--) {
        const char *end = matchFrom(m, s + taken, ep + 1);
        if (end != NULL) return end;
    }
    return NULL;
}

/// `x-`: as few as possible, one more each time the rest of the pattern fails.
static const char *matchLazy(PatternMatch *m, const char *s, const char *p, const char *ep) {
    for (;;) {
        const char *end = matchFrom(m, s, ep + 1);
        if (end != NULL) return end;
        countSteps(m, 1);
        if (!classMatches(m, s, p, ep)) return NULL;
        s++;
    }
}

// MARK: - Captures

/// `(` or `()`: opens the next capture at `s` and matches the rest from `p`; the capture is dropped if that fails.
static const char *openCapture(PatternMatch *m, const char *s, const char *p, ptrdiff_t kind) {
    int index = m->captureCount;
    if (index >= PATTERN_MAXIMUM_CAPTURES) luaL_error(stateOf(m), "too many captures");
    m->captures[index].start = s;
    m->captures[index].length = kind;
    m->captureCount = index + 1;
    const char *end = matchFrom(m, s, p);
    if (end == NULL) m->captureCount--;
    return end;
}

/// `)`: closes the innermost open capture at `s`, reopening it if the rest of the pattern fails.
static const char *closeCapture(PatternMatch *m, const char *s, const char *p) {
    int index = m->captureCount - 1;
    while (index >= 0 && m->captures[index].length != PATTERN_CAPTURE_OPEN) index--;
    if (index < 0) luaL_error(stateOf(m), "invalid pattern capture");
    PatternCapture *capture = &m->captures[index];
    capture->length = s - capture->start;
    const char *end = matchFrom(m, s, p);
    if (end == NULL) capture->length = PATTERN_CAPTURE_OPEN;
    return end;
}

/// `%1`–`%9` (and the invalid `%0`): the text of a closed capture again, at `s`.
static const char *matchBackReference(PatternMatch *m, const char *s, char digit) {
    int index = digit - '1';
    if (index < 0 || index >= m->captureCount || m->captures[index].length == PATTERN_CAPTURE_OPEN) {
        luaL_error(stateOf(m), "invalid capture index %%%d", index + 1);
    }
    ptrdiff_t length = m->captures[index].length;
    if (length == PATTERN_CAPTURE_POSITION) return NULL;   // a position is no text: liblua5.4 never matches it
    countSteps(m, 1 + length / BYTES_PER_STEP);
    if (m->subjectEnd - s < length || memcmp(m->captures[index].start, s, (size_t)length) != 0) return NULL;
    return s + length;
}

// MARK: - %b and %f

/// `%bxy` with `p` at `x`: from an `x` at `s` to its balancing `y`. A step per byte scanned.
static const char *matchBalanced(PatternMatch *m, const char *s, const char *p) {
    if (p >= m->patternEnd - 1) luaL_error(stateOf(m), "malformed pattern (missing arguments to '%%b')");
    countSteps(m, 1);
    if (s >= m->subjectEnd || *s != p[0]) return NULL;
    char open = p[0], close = p[1];
    long long depth = 1;
    const char *q = s + 1;
    for (; q < m->subjectEnd; q++) {
        if (*q == close) {
            if (--depth == 0) break;
        } else if (*q == open) {
            depth++;
        }
    }
    countSteps(m, q - s);   // once the scan is over: it is bounded by the subject
    return q < m->subjectEnd ? q + 1 : NULL;
}

/// `%f[set]` with `p` at the '[': whether `s` is where the subject passes from a byte outside the set to one
/// inside it (the subject's ends count as '\0'). Sets `*next` to the pattern after the set.
static int frontierHolds(PatternMatch *m, const char *s, const char *p, const char **next) {
    if (*p != '[') luaL_error(stateOf(m), "missing '[' after '%%f' in pattern");
    const char *ep = classEnd(m, p);
    *next = ep;
    countSteps(m, 1);
    int before = s == m->subject ? 0 : (unsigned char)s[-1];
    int after = s < m->subjectEnd ? (unsigned char)*s : 0;
    return !inSet(before, p, ep - 1) && inSet(after, p, ep - 1);
}

// MARK: - Sequences

/// `x*`, `x+` or `x-`, the class `x` from `p` to `ep` (the quantifier) having matched at `s`.
static const char *matchRepeated(PatternMatch *m, const char *s, const char *p, const char *ep) {
    switch (*ep) {
    case '+': return matchGreedy(m, s + 1, p, ep);
    case '*': return matchGreedy(m, s, p, ep);
    default: return matchLazy(m, s, p, ep);
    }
}

/// The pattern from `p` against the subject from `s`: the end of the match, or NULL. Pieces that need no
/// backtracking continue in this loop; the others nest a continuation (matchFrom).
static const char *matchSequence(PatternMatch *m, const char *s, const char *p) {
    while (p != m->patternEnd) {
        switch (*p) {
        case '(':
            if (p[1] == ')') return openCapture(m, s, p + 2, PATTERN_CAPTURE_POSITION);
            return openCapture(m, s, p + 1, PATTERN_CAPTURE_OPEN);
        case ')':
            return closeCapture(m, s, p + 1);
        case '$':
            if (p + 1 == m->patternEnd) return s == m->subjectEnd ? s : NULL;
            break;   // elsewhere, '$' is an ordinary character
        case ESCAPE:
            if (p[1] == 'b') {
                s = matchBalanced(m, s, p + 2);
                if (s == NULL) return NULL;
                p += 4;
                continue;
            }
            if (p[1] == 'f') {
                if (!frontierHolds(m, s, p + 2, &p)) return NULL;
                continue;
            }
            if (p[1] >= '0' && p[1] <= '9') {
                s = matchBackReference(m, s, p[1]);
                if (s == NULL) return NULL;
                p += 2;
                continue;
            }
            break;   // a class such as %d, or an escaped character
        default:
            break;
        }
        const char *ep = classEnd(m, p);   // a single-character class, maybe followed by a quantifier
        char quantifier = *ep;
        countSteps(m, 1);
        if (!classMatches(m, s, p, ep)) {
            if (quantifier != '*' && quantifier != '?' && quantifier != '-') return NULL;
            p = ep + 1;   // zero occurrences will do
        } else if (quantifier == '?') {
            const char *end = matchFrom(m, s + 1, ep + 1);
            if (end != NULL) return end;
            p = ep + 1;   // without the optional character
        } else if (quantifier == '*' || quantifier == '+' || quantifier == '-') {
            return matchRepeated(m, s, p, ep);
        } else {
            s++;
            p = ep;
        }
    }
    return s;
}

static const char *matchFrom(PatternMatch *m, const char *s, const char *p) {
    if (m->nestingLeft-- == 0) luaL_error(stateOf(m), "pattern too complex");
    countSteps(m, 1);
    const char *end = matchSequence(m, s, p);
    m->nestingLeft++;
    return end;
}
