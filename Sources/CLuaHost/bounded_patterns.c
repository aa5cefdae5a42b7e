// Lua patterns (string.find, match, gmatch, gsub) that pay for their work.
//
// Lua's own matcher backtracks inside one C call, where no count hook can reach:
// `string.find(string.rep("a", 400), ".-.-.-b")` runs for seconds. This matcher keeps
// Lua's pattern language and results, and charges every step it takes to the call's
// instruction budget, checking the deadline as it goes, so a pattern stops where a
// loop would.
#include <ctype.h>
#include <string.h>

#include "internal.h"

enum {
  CLUA_PATTERN_MAX_CAPTURES = 32,
  /// Nesting of the matcher's recursion, as in Lua: deeper patterns are "too complex".
  CLUA_PATTERN_MAX_DEPTH = 200,
  /// Steps are charged in batches, so that the budget is checked without slowing a match.
  CLUA_PATTERN_BATCH = 4096,
};

/// A capture's length while it is still open, or when it is a position capture `()`.
#define CLUA_CAPTURE_OPEN ((ptrdiff_t)-1)
#define CLUA_CAPTURE_POSITION ((ptrdiff_t)-2)

typedef struct clua_Matcher {
  lua_State *L;
  const char *subject, *subjectEnd;
  const char *patternEnd;
  int depthLeft;
  int captureCount;
  struct {
    const char *start;
    ptrdiff_t length;
  } captures[CLUA_PATTERN_MAX_CAPTURES];
  long long steps;
} clua_Matcher;

static inline void clua_pm_charge(clua_Matcher *m, long long steps) {
  m->steps += steps;
  if (m->steps >= CLUA_PATTERN_BATCH) {
    long long due = m->steps;
    m->steps = 0;
    clua_charge(m->L, due);
  }
}

static inline void clua_pm_settle(clua_Matcher *m) {
  long long due = m->steps;
  m->steps = 0;
  clua_charge(m->L, due);
}

static void clua_pm_setup(clua_Matcher *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
  m->L = L;
  m->subject = s;
  m->subjectEnd = s + ls;
  m->patternEnd = p + lp;
  m->steps = 0;
  m->captureCount = 0;
  m->depthLeft = CLUA_PATTERN_MAX_DEPTH;
}

/// The end of the single-character class that starts at `p`.
static const char *clua_pm_class_end(clua_Matcher *m, const char *p) {
  const char *end = m->patternEnd;
  char c = *p++;
  if (c == '%') {
    if (p >= end) clua_raise(m->L, "malformed pattern (ends with '%%')");
    return p + 1;
  }
  if (c != '[') return p;
  if (p < end && *p == '^') p++;
  // The first character of a set stands for itself, even when it is ']'.
  for (int first = 1;; first = 0) {
    if (p >= end) clua_raise(m->L, "malformed pattern (missing ']')");
    if (*p == ']' && !first) return p + 1;
    if (*p == '%') {
      p++;
      if (p >= end) clua_raise(m->L, "malformed pattern (missing ']')");
    }
    p++;
  }
}

static int clua_pm_in_class(int c, int classLetter) {
  int matches;
  switch (tolower(classLetter)) {
  case 'a': matches = isalpha(c); break;
  case 'c': matches = iscntrl(c); break;
  case 'd': matches = isdigit(c); break;
  case 'g': matches = isgraph(c); break;
  case 'l': matches = islower(c); break;
  case 'p': matches = ispunct(c); break;
  case 's': matches = isspace(c); break;
  case 'u': matches = isupper(c); break;
  case 'w': matches = isalnum(c); break;
  case 'x': matches = isxdigit(c); break;
  // Deprecated in 5.2, still in Lua 5.4's matcher: %z is the zero byte.
  case 'z': matches = (c == 0); break;
  default: return classLetter == c;
  }
  if (isupper(classLetter)) matches = !matches;
  return matches != 0;
}

/// Whether `c` is in the set `[...]` from `p` (its '[') to `close` (its ']').
static int clua_pm_in_set(int c, const char *p, const char *close) {
  int inside = 1;
  p++;
  if (*p == '^') {
    inside = 0;
    p++;
  }
  while (p < close) {
    if (*p == '%') {
      p++;
      if (clua_pm_in_class(c, (unsigned char)*p)) return inside;
      p++;
    } else if (p + 2 < close && p[1] == '-') {
      if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) return inside;
      p += 3;
    } else {
      if ((unsigned char)*p == c) return inside;
      p++;
    }
  }
  return !inside;
}

static int clua_pm_single(clua_Matcher *m, const char *s, const char *p, const char *classEnd) {
  if (s >= m->subjectEnd) return 0;
  int c = (unsigned char)*s;
  switch (*p) {
  case '.': return 1;
  case '%': return clua_pm_in_class(c, (unsigned char)p[1]);
  case '[':
    // A set is scanned whole at every position it is tried at: a set of megabytes pays
    // for its bytes each time.
    clua_pm_charge(m, (long long)((classEnd - p) / 16));
    return clua_pm_in_set(c, p, classEnd - 1);
  default: return (unsigned char)*p == c;
  }
}

static const char *clua_pm_match(clua_Matcher *m, const char *s, const char *p);

static const char *clua_pm_max_expand(clua_Matcher *m, const char *s, const char *p, const char *classEnd) {
  ptrdiff_t count = 0;
  while (clua_pm_single(m, s + count, p, classEnd)) {
    count++;
    clua_pm_charge(m, 1);
  }
  for (; count >= 0; count--) {
    const char *result = clua_pm_match(m, s + count, classEnd + 1);
    if (result != NULL) return result;
  }
  return NULL;
}

static const char *clua_pm_min_expand(clua_Matcher *m, const char *s, const char *p, const char *classEnd) {
  for (;;) {
    const char *result = clua_pm_match(m, s, classEnd + 1);
    if (result != NULL) return result;
    if (!clua_pm_single(m, s, p, classEnd)) return NULL;
    s++;
  }
}

static const char *clua_pm_balance(clua_Matcher *m, const char *s, const char *p) {
  if (p + 1 >= m->patternEnd) clua_raise(m->L, "malformed pattern (missing arguments to '%%b')");
  if (s >= m->subjectEnd || *s != p[0]) return NULL;
  char open = p[0], close = p[1];
  int depth = 1;
  while (++s < m->subjectEnd) {
    clua_pm_charge(m, 1);
    if (*s == close) {
      if (--depth == 0) return s + 1;
    } else if (*s == open) {
      depth++;
    }
  }
  return NULL;
}

static const char *clua_pm_open_capture(clua_Matcher *m, const char *s, const char *p, ptrdiff_t kind) {
  if (m->captureCount >= CLUA_PATTERN_MAX_CAPTURES) clua_raise(m->L, "too many captures");
  m->captures[m->captureCount].start = s;
  m->captures[m->captureCount].length = kind;
  m->captureCount++;
  const char *result = clua_pm_match(m, s, p);
  if (result == NULL) m->captureCount--;
  return result;
}

static const char *clua_pm_close_capture(clua_Matcher *m, const char *s, const char *p) {
  int index = m->captureCount - 1;
  while (index >= 0 && m->captures[index].length != CLUA_CAPTURE_OPEN) index--;
  if (index < 0) clua_raise(m->L, "invalid pattern capture");
  m->captures[index].length = s - m->captures[index].start;
  const char *result = clua_pm_match(m, s, p);
  if (result == NULL) m->captures[index].length = CLUA_CAPTURE_OPEN;
  return result;
}

static const char *clua_pm_back_reference(clua_Matcher *m, const char *s, int digit) {
  int index = digit - '1';
  if (index < 0 || index >= m->captureCount || m->captures[index].length == CLUA_CAPTURE_OPEN) {
    clua_raise(m->L, "invalid capture index %%%d", index + 1);
  }
  size_t length = (size_t)m->captures[index].length;
  if (m->captures[index].length == CLUA_CAPTURE_POSITION || (size_t)(m->subjectEnd - s) < length) return NULL;
  clua_pm_charge(m, (long long)(length / 16));
  return memcmp(m->captures[index].start, s, length) == 0 ? s + length : NULL;
}

/// Matches the pattern from `p` against the subject from `s`: the end of the match, or
/// NULL. Recursion is bounded by depthLeft; loops and expansions charge their steps.
static const char *clua_pm_match(clua_Matcher *m, const char *s, const char *p) {
  if (m->depthLeft-- == 0) clua_raise(m->L, "pattern too complex");
  const char *end = m->patternEnd;
  for (;;) {
    clua_pm_charge(m, 1);
    if (p >= end) break;
    if (*p == '(') {
      if (p + 1 < end && p[1] == ')') {
        s = clua_pm_open_capture(m, s, p + 2, CLUA_CAPTURE_POSITION);
      } else {
        s = clua_pm_open_capture(m, s, p + 1, CLUA_CAPTURE_OPEN);
      }
      break;
    }
    if (*p == ')') {
      s = clua_pm_close_capture(m, s, p + 1);
      break;
    }
    if (*p == '$' && p + 1 == end) {
      if (s != m->subjectEnd) s = NULL;
      break;
    }
    if (*p == '%' && p + 1 < end && p[1] == 'b') {
      s = clua_pm_balance(m, s, p + 2);
      if (s == NULL) break;
      p += 4;
      continue;
    }
    if (*p == '%' && p + 1 < end && p[1] == 'f') {
      p += 2;
      if (p >= end || *p != '[') clua_raise(m->L, "missing '[' after '%%f' in pattern");
      const char *classEnd = clua_pm_class_end(m, p);
      int previous = s == m->subject ? 0 : (unsigned char)s[-1];
      int current = s < m->subjectEnd ? (unsigned char)*s : 0;
      if (!clua_pm_in_set(previous, p, classEnd - 1) && clua_pm_in_set(current, p, classEnd - 1)) {
        p = classEnd;
        continue;
      }
      s = NULL;
      break;
    }
    if (*p == '%' && p + 1 < end && isdigit((unsigned char)p[1])) {
      s = clua_pm_back_reference(m, s, (unsigned char)p[1]);
      if (s == NULL) break;
      p += 2;
      continue;
    }
    const char *classEnd = clua_pm_class_end(m, p);
    char suffix = classEnd < end ? *classEnd : '\0';
    if (!clua_pm_single(m, s, p, classEnd)) {
      if (suffix == '*' || suffix == '?' || suffix == '-') {
        p = classEnd + 1;
        continue;
      }
      s = NULL;
      break;
    }
    if (suffix == '?') {
      const char *result = clua_pm_match(m, s + 1, classEnd + 1);
      if (result != NULL) {
        s = result;
        break;
      }
      p = classEnd + 1;
      continue;
    }
    if (suffix == '+') {
      s = clua_pm_max_expand(m, s + 1, p, classEnd);
      break;
    }
    if (suffix == '*') {
      s = clua_pm_max_expand(m, s, p, classEnd);
      break;
    }
    if (suffix == '-') {
      s = clua_pm_min_expand(m, s, p, classEnd);
      break;
    }
    s++;
    p = classEnd;
  }
  m->depthLeft++;
  return s;
}

static void clua_pm_push_capture(clua_Matcher *m, int index, const char *s, const char *e) {
  if (index >= m->captureCount) {
    if (index != 0) clua_raise(m->L, "invalid capture index %%%d", index + 1);
    lua_pushlstring(m->L, s, (size_t)(e - s));
    return;
  }
  ptrdiff_t length = m->captures[index].length;
  if (length == CLUA_CAPTURE_OPEN) clua_raise(m->L, "unfinished capture");
  if (length == CLUA_CAPTURE_POSITION) {
    lua_pushinteger(m->L, (lua_Integer)(m->captures[index].start - m->subject) + 1);
  } else {
    lua_pushlstring(m->L, m->captures[index].start, (size_t)length);
  }
}

/// Pushes the captures, or the whole match when the pattern has none and `s` is given.
static int clua_pm_push_captures(clua_Matcher *m, const char *s, const char *e) {
  int count = (m->captureCount == 0 && s != NULL) ? 1 : m->captureCount;
  luaL_checkstack(m->L, count, "too many captures");
  for (int index = 0; index < count; index++) clua_pm_push_capture(m, index, s, e);
  return count;
}

/// Lua's rule for a start position: negative counts from the end; out of range clamps.
static size_t clua_pm_start(lua_Integer position, size_t length) {
  if (position > 0) return (size_t)position;
  if (position == 0 || position < -(lua_Integer)length) return 1;
  return length + (size_t)position + 1;
}

static int clua_pm_has_specials(const char *p, size_t length) {
  for (size_t index = 0; index < length; index++) {
    if (p[index] != '\0' && strchr("^$*+?.([%-", p[index]) != NULL) return 1;
  }
  return 0;
}

/// A plain substring search that charges for the bytes it compares.
static const char *clua_pm_find_plain(clua_Matcher *m, const char *s, size_t ls, const char *p, size_t lp) {
  if (lp == 0) return s;
  if (lp > ls) return NULL;
  const char *last = s + (ls - lp);
  long long perCandidate = 1 + (long long)(lp / 16);
  while (s <= last) {
    const char *hit = memchr(s, *p, (size_t)(last - s) + 1);
    if (hit == NULL) break;
    clua_pm_charge(m, perCandidate + (hit - s) / 64);
    if (memcmp(hit + 1, p + 1, lp - 1) == 0) return hit;
    s = hit + 1;
  }
  return NULL;
}

static int clua_pm_find_or_match(lua_State *L, int find) {
  size_t ls, lp;
  const char *s = clua_check_string(L, 1, &ls);
  const char *p = clua_check_string(L, 2, &lp);
  size_t start = clua_pm_start(luaL_optinteger(L, 3, 1), ls) - 1;
  if (start > ls) {
    lua_pushnil(L);
    return 1;
  }
  clua_Matcher m;
  clua_pm_setup(&m, L, s, ls, p, lp);
  if (find && (lua_toboolean(L, 4) || !clua_pm_has_specials(p, lp))) {
    const char *hit = clua_pm_find_plain(&m, s + start, ls - start, p, lp);
    clua_pm_settle(&m);
    if (hit == NULL) {
      lua_pushnil(L);
      return 1;
    }
    lua_pushinteger(L, (lua_Integer)(hit - s) + 1);
    lua_pushinteger(L, (lua_Integer)(hit - s) + (lua_Integer)lp);
    return 2;
  }
  int anchored = lp > 0 && *p == '^';
  if (anchored) p++;
  const char *from = s + start;
  do {
    m.captureCount = 0;
    m.depthLeft = CLUA_PATTERN_MAX_DEPTH;
    const char *e = clua_pm_match(&m, from, p);
    if (e != NULL) {
      clua_pm_settle(&m);
      if (!find) return clua_pm_push_captures(&m, from, e);
      lua_pushinteger(L, (lua_Integer)(from - s) + 1);
      lua_pushinteger(L, (lua_Integer)(e - s));
      return clua_pm_push_captures(&m, NULL, NULL) + 2;
    }
  } while (from++ < m.subjectEnd && !anchored);
  clua_pm_settle(&m);
  lua_pushnil(L);
  return 1;
}

int clua_bounded_find(lua_State *L) { return clua_pm_find_or_match(L, 1); }
int clua_bounded_match(lua_State *L) { return clua_pm_find_or_match(L, 0); }

typedef struct clua_GlobalMatch {
  clua_Matcher matcher;
  const char *from;
  const char *pattern;
  const char *lastMatch;
} clua_GlobalMatch;

static int clua_bounded_gmatch_next(lua_State *L) {
  clua_GlobalMatch *state = (clua_GlobalMatch *)lua_touserdata(L, lua_upvalueindex(3));
  clua_Matcher *m = &state->matcher;
  // The iterator may be called from another coroutine than the one that made it.
  m->L = L;
  for (const char *from = state->from; from <= m->subjectEnd; from++) {
    m->captureCount = 0;
    m->depthLeft = CLUA_PATTERN_MAX_DEPTH;
    const char *e = clua_pm_match(m, from, state->pattern);
    if (e != NULL && e != state->lastMatch) {
      state->from = state->lastMatch = e;
      clua_pm_settle(m);
      return clua_pm_push_captures(m, from, e);
    }
  }
  state->from = m->subjectEnd + 1;
  clua_pm_settle(m);
  return 0;
}

int clua_bounded_gmatch(lua_State *L) {
  size_t ls, lp;
  const char *s = clua_check_string(L, 1, &ls);
  const char *p = clua_check_string(L, 2, &lp);
  size_t start = clua_pm_start(luaL_optinteger(L, 3, 1), ls) - 1;
  if (start > ls) start = ls + 1;
  lua_settop(L, 2);
  clua_GlobalMatch *state = (clua_GlobalMatch *)lua_newuserdatauv(L, sizeof(clua_GlobalMatch), 0);
  clua_pm_setup(&state->matcher, L, s, ls, p, lp);
  state->from = s + start;
  state->pattern = p;
  state->lastMatch = NULL;
  // The subject and pattern stay upvalues, so the pointers into them stay valid.
  lua_pushcclosure(L, clua_bounded_gmatch_next, 3);
  return 1;
}

/// Appends a replacement string with its `%0`-`%9` and `%%` to the buffer.
static void clua_pm_add_string(clua_Matcher *m, luaL_Buffer *buffer, const char *s, const char *e) {
  lua_State *L = m->L;
  size_t length;
  const char *text = lua_tolstring(L, 3, &length);
  const char *end = text + length;
  clua_pm_charge(m, (long long)(length / 16));
  for (const char *c = text; c < end; c++) {
    if (*c != '%') {
      luaL_addchar(buffer, *c);
      continue;
    }
    c++;
    if (c < end && *c == '%') {
      luaL_addchar(buffer, '%');
    } else if (c < end && *c == '0') {
      luaL_addlstring(buffer, s, (size_t)(e - s));
    } else if (c < end && isdigit((unsigned char)*c)) {
      clua_pm_push_capture(m, *c - '1', s, e);
      luaL_tolstring(L, -1, NULL);
      lua_remove(L, -2);
      luaL_addvalue(buffer);
    } else {
      clua_raise(L, "invalid use of '%%' in replacement string");
    }
  }
}

/// Appends the replacement for one match; returns whether it changed the text.
static int clua_pm_add_replacement(clua_Matcher *m, luaL_Buffer *buffer, const char *s, const char *e, int kind) {
  lua_State *L = m->L;
  if (kind == LUA_TFUNCTION) {
    lua_pushvalue(L, 3);
    int count = clua_pm_push_captures(m, s, e);
    lua_call(L, count, 1);
  } else if (kind == LUA_TTABLE) {
    clua_pm_push_capture(m, 0, s, e);
    lua_gettable(L, 3);
  } else {
    clua_pm_add_string(m, buffer, s, e);
    return 1;
  }
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    luaL_addlstring(buffer, s, (size_t)(e - s));
    return 0;
  }
  if (!lua_isstring(L, -1)) clua_raise(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  luaL_addvalue(buffer);
  return 1;
}

int clua_bounded_gsub(lua_State *L) {
  size_t ls, lp;
  const char *s = clua_check_string(L, 1, &ls);
  const char *p = clua_check_string(L, 2, &lp);
  int kind = lua_type(L, 3);
  lua_Integer maxReplacements = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
  if (!(kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION || kind == LUA_TTABLE)) {
    clua_raise_type_error(L, 3, "string/function/table");
  }
  clua_Matcher m;
  clua_pm_setup(&m, L, s, ls, p, lp);
  int anchored = lp > 0 && *p == '^';
  if (anchored) p++;
  luaL_Buffer buffer;
  luaL_buffinit(L, &buffer);
  const char *from = s, *lastMatch = NULL;
  lua_Integer replaced = 0;
  int changed = 0;
  while (replaced < maxReplacements) {
    m.captureCount = 0;
    m.depthLeft = CLUA_PATTERN_MAX_DEPTH;
    const char *e = clua_pm_match(&m, from, p);
    if (e != NULL && e != lastMatch) {
      replaced++;
      changed = clua_pm_add_replacement(&m, &buffer, from, e, kind) | changed;
      from = lastMatch = e;
    } else if (from < m.subjectEnd) {
      luaL_addchar(&buffer, *from++);
    } else {
      break;
    }
    if (anchored) break;
  }
  clua_pm_settle(&m);
  if (!changed) {
    lua_pushvalue(L, 1);
  } else {
    luaL_addlstring(&buffer, from, (size_t)(m.subjectEnd - from));
    luaL_pushresult(&buffer);
  }
  lua_pushinteger(L, replaced);
  return 2;
}
