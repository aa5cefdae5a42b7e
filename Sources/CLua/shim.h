// The only C that droprules owns: wrappers for Lua's macros, which Swift cannot
// import, plus the few pieces that must be C because they raise Lua errors
// (lua_error longjmps, and that must never cross a Swift frame).
#ifndef CLUA_SHIM_H
#define CLUA_SHIM_H

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "bounded_patterns.h"

/// Message handler for protected calls: appends a traceback to string messages.
/// The message stays a Lua string throughout: as a C string, a NUL in it would cut it short.
static int clua_traceback(lua_State *L) {
  if (lua_tostring(L, 1) == NULL) {
    if (!(luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)) {
      lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    lua_replace(L, 1);
  }
  lua_settop(L, 1);
  lua_pushliteral(L, "\n");
  luaL_traceback(L, L, NULL, 1);
  lua_concat(L, 3);
  return 1;
}

static inline int clua_pcall_traceback(lua_State *L, int nargs, int nresults) {
  int base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, clua_traceback);
  lua_insert(L, base);
  int status = lua_pcall(L, nargs, nresults, base);
  lua_remove(L, base);
  return status;
}

static int clua_trampoline(lua_State *L) {
  clua_Budget *budget = clua_budget(L);
  void *function = lua_touserdata(L, lua_upvalueindex(1));
  int enforcing = budget->enforceMemory;
  budget->enforceMemory = 0;
  int results = budget->swiftDispatcher(L, function);
  budget->enforceMemory = enforcing;
  if (results < 0) return lua_error(L);
  return results;
}

static inline void clua_pushswiftfunction(lua_State *L, void *function) {
  lua_pushlightuserdata(L, function);
  lua_pushcclosure(L, clua_trampoline, 1);
}

/// What a handler's first result is, read with raw accesses only: a rule's table may
/// carry metamethods, and nothing may run them outside a protected call.
typedef enum clua_ResultKind {
  CLUA_RESULT_NONE = 0,
  CLUA_RESULT_TRUE,
  CLUA_RESULT_FALSE,
  /// A proposal word ("move", ...) alone or as `{ operation = ..., index = n }`.
  CLUA_RESULT_PROPOSAL,
  CLUA_RESULT_OTHER,
} clua_ResultKind;

typedef enum clua_IndexKind {
  CLUA_INDEX_NONE = 0,
  CLUA_INDEX_INTEGER,
  /// A float, possibly NaN or infinite: the host decides whether it is whole and finite.
  CLUA_INDEX_FLOAT,
  CLUA_INDEX_NOT_A_NUMBER,
} clua_IndexKind;

typedef struct clua_HandlerResult {
  int status;
  clua_ResultKind kind;
  /// 0 move, 1 copy, 2 forbidden, 3 cancel, with CLUA_RESULT_PROPOSAL.
  int proposal;
  clua_IndexKind indexKind;
  long long integerIndex;
  double floatIndex;
  int leftOnStack;
  int outermost;
} clua_HandlerResult;

static inline int clua_proposal_code(lua_State *L, int index) {
  if (lua_type(L, index) != LUA_TSTRING) return -1;
  const void *pointer = lua_topointer(L, index);
  clua_Budget *budget = clua_budget(L);
  for (int code = 0; code < 4; code++) {
    if (budget->words[code] == pointer) return code;
  }
  size_t length = 0;
  const char *text = lua_tolstring(L, index, &length);
  static const char *const words[] = {"move", "copy", "forbidden", "cancel"};
  for (int code = 0; code < 4; code++) {
    if (strlen(words[code]) == length && memcmp(words[code], text, length) == 0) return code;
  }
  return -1;
}

static inline void clua_classify(lua_State *L, int index, clua_HandlerResult *out) {
  out->indexKind = CLUA_INDEX_NONE;
  out->proposal = -1;
  switch (lua_type(L, index)) {
  case LUA_TNIL: case LUA_TNONE:
    out->kind = CLUA_RESULT_NONE;
    return;
  case LUA_TBOOLEAN:
    out->kind = lua_toboolean(L, index) ? CLUA_RESULT_TRUE : CLUA_RESULT_FALSE;
    return;
  case LUA_TSTRING:
    out->proposal = clua_proposal_code(L, index);
    out->kind = out->proposal >= 0 ? CLUA_RESULT_PROPOSAL : CLUA_RESULT_OTHER;
    return;
  case LUA_TTABLE: {
    int table = lua_absindex(L, index);
    out->kind = CLUA_RESULT_OTHER;
    lua_pushliteral(L, "operation");
    lua_rawget(L, table);
    out->proposal = clua_proposal_code(L, -1);
    lua_pop(L, 1);
    if (out->proposal < 0) return;
    out->kind = CLUA_RESULT_PROPOSAL;
    lua_pushliteral(L, "index");
    lua_rawget(L, table);
    if (lua_isinteger(L, -1)) {
      out->indexKind = CLUA_INDEX_INTEGER;
      out->integerIndex = lua_tointegerx(L, -1, NULL);
    } else if (lua_type(L, -1) == LUA_TNUMBER) {
      out->indexKind = CLUA_INDEX_FLOAT;
      out->floatIndex = lua_tonumberx(L, -1, NULL);
    } else if (!lua_isnil(L, -1)) {
      out->indexKind = CLUA_INDEX_NOT_A_NUMBER;
    }
    lua_pop(L, 1);
    return;
  }
  default:
    out->kind = CLUA_RESULT_OTHER;
  }
}

/// Stack slots that stay at the bottom of the main thread's stack for its whole life:
/// the message handler and the keys the host writes on every step, reached with a
/// cheap `lua_pushvalue` instead of a registry lookup or string interning.
enum { CLUA_SLOT_TRACEBACK = 1, CLUA_SLOT_KEY_X = 2, CLUA_SLOT_KEY_Y = 3, CLUA_RESIDENT_SLOTS = 3 };

/// Puts the resident slots in place (on a new state, before anything else runs) and
/// interns the proposal words.
static inline void clua_keep_keys(lua_State *L) {
  clua_Budget *budget = clua_budget(L);
  lua_settop(L, 0);
  lua_pushcfunction(L, clua_traceback);
  lua_pushliteral(L, "x");
  lua_pushliteral(L, "y");
  static const char *const words[] = {"move", "copy", "forbidden", "cancel"};
  for (int code = 0; code < 4; code++) {
    lua_pushstring(L, words[code]);
    budget->words[code] = lua_topointer(L, -1);
    luaL_ref(L, LUA_REGISTRYINDEX);  // kept alive, so the interned string never changes
  }
}

/// Writes a point in place into a location table: `x`, `y`, `[1]`, `[2]`.
static inline void clua_write_point(lua_State *L, int table, double x, double y) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, table);
  lua_pushvalue(L, CLUA_SLOT_KEY_X);
  lua_pushnumber(L, x);
  lua_rawset(L, -3);
  lua_pushvalue(L, CLUA_SLOT_KEY_Y);
  lua_pushnumber(L, y);
  lua_rawset(L, -3);
  lua_pushnumber(L, x);
  lua_rawseti(L, -2, 1);
  lua_pushnumber(L, y);
  lua_rawseti(L, -2, 2);
  lua_pop(L, 1);
}

/// What one handler call of a pointer step needs: the function, `info`, the target and
/// the two location tables to update first (registry references), and the pointer.
typedef struct clua_HandlerCall {
  int function, info, target, location, globalLocation;
  double x, y, globalX, globalY;
} clua_HandlerCall;

/// Updates `info.location` and `info.globalLocation` in place, then calls
/// `function(info, target)` under the budget with the resident message handler. When the
/// result is nil, a boolean or a proposal, the stack is left as it was; otherwise the
/// result (or error message) stays on top for the caller to read and pop, and
/// `out->leftOnStack` is 1. Allocates nothing of its own.
static inline void clua_call_handler(lua_State *L, clua_Budget *budget, const clua_HandlerCall *call,
                                     long long instructionLimit, int observeLines, clua_HandlerResult *out) {
  clua_write_point(L, call->location, call->x, call->y);
  clua_write_point(L, call->globalLocation, call->globalX, call->globalY);
  int outermost = budget->callDepth == 0;
  budget->callDepth++;
  lua_rawgeti(L, LUA_REGISTRYINDEX, call->function);
  lua_rawgeti(L, LUA_REGISTRYINDEX, call->info);
  lua_rawgeti(L, LUA_REGISTRYINDEX, call->target);
  if (outermost) clua_arm(L, instructionLimit, observeLines);
  out->status = lua_pcall(L, 2, 1, CLUA_SLOT_TRACEBACK);
  if (outermost) {
    budget->countingInstructions = 0;
    budget->enforceMemory = 0;
    budget->runningThread = NULL;
  }
  budget->callDepth--;
  out->outermost = outermost;
  if (out->status == LUA_OK) clua_classify(L, -1, out);
  if (out->status == LUA_OK && out->kind != CLUA_RESULT_OTHER) {
    lua_pop(L, 1);
    out->leftOnStack = 0;
  } else {
    out->leftOnStack = 1;
  }
}

/// Sets `table[key]` to an integer, or to nil when `present` is 0, without metamethods.
static inline void clua_rawset_integer(lua_State *L, int table, const char *key, long long value, int present) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, table);
  lua_pushstring(L, key);
  if (present) lua_pushinteger(L, (lua_Integer)value); else lua_pushnil(L);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/// Sets `table[key]` to a string, or to nil when `value` is NULL, without metamethods.
static inline void clua_rawset_string(lua_State *L, int table, const char *key, const char *value) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, table);
  lua_pushstring(L, key);
  if (value) lua_pushstring(L, value); else lua_pushnil(L);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/// Locks the metatable all strings share, so no rule can reach or change it (and,
/// through its `__index`, the string library every other rule file uses).
static inline void clua_lock_string_metatable(lua_State *L) {
  lua_pushliteral(L, "");
  if (lua_getmetatable(L, -1)) {
    lua_pushliteral(L, "the string metatable is locked");
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

static inline int clua_loadtext(lua_State *L, const char *text, size_t length, const char *chunkName) {
  return luaL_loadbufferx(L, text, length, chunkName, "t");
}

/// Loads bytecode that `clua_dump` made in this process from a chunk `clua_loadtext`
/// compiled. Lua does not verify bytecode, so nothing else may ever reach this: not a
/// file, not a rule's string (see CompiledChunkCache.swift).
static inline int clua_load_own_bytecode(lua_State *L, const char *bytes, size_t length, const char *chunkName) {
  return luaL_loadbufferx(L, bytes, length, chunkName, "b");
}

/// A growing buffer outside the Lua heap, for `clua_dump`.
typedef struct {
  char *bytes;
  size_t length;
  size_t capacity;
  int failed;
} clua_DumpBuffer;

static int clua_dump_writer(lua_State *L, const void *part, size_t size, void *context) {
  (void)L;
  clua_DumpBuffer *buffer = (clua_DumpBuffer *)context;
  if (buffer->length + size > buffer->capacity) {
    size_t capacity = buffer->capacity == 0 ? 4096 : buffer->capacity;
    while (capacity < buffer->length + size) capacity *= 2;
    char *grown = (char *)realloc(buffer->bytes, capacity);
    if (grown == NULL) {
      buffer->failed = 1;
      return 1;
    }
    buffer->bytes = grown;
    buffer->capacity = capacity;
  }
  memcpy(buffer->bytes + buffer->length, part, size);
  buffer->length += size;
  return 0;
}

/// The bytecode of the Lua function on top of the stack, with its debug information
/// (file names and lines for errors, tracebacks and coverage), in a buffer the caller
/// frees with `free`; NULL if it could not be made. Leaves the stack as it was.
static inline char *clua_dump(lua_State *L, size_t *length) {
  clua_DumpBuffer buffer = {NULL, 0, 0, 0};
  int status = lua_dump(L, clua_dump_writer, &buffer, 0);
  if (status != 0 || buffer.failed) {
    free(buffer.bytes);
    return NULL;
  }
  *length = buffer.length;
  return buffer.bytes;
}

/// The sandbox's bounded pieces: patterns that pay for their steps, the coroutine
/// resume hooks, and `charge` for the wrappers of other C functions.
static inline void clua_push_bounded_library(lua_State *L) {
  static const luaL_Reg functions[] = {
      {"find", clua_bounded_find},         {"match", clua_bounded_match},
      {"gmatch", clua_bounded_gmatch},     {"gsub", clua_bounded_gsub},
      {"charge", clua_charge_function},    {"resume", clua_bounded_resume},
      {NULL, NULL},
  };
  luaL_newlib(L, functions);
}

/// Bytes the host holds for rules outside the Lua heap, counted against the cap.
static inline void clua_set_external_bytes(lua_State *L, size_t bytes) { clua_budget(L)->externalBytes = bytes; }

static inline void clua_collectgarbage(lua_State *L) { lua_gc(L, LUA_GCCOLLECT, 0); }
static inline void clua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void clua_newtable(lua_State *L) { lua_newtable(L); }
static inline const char *clua_tostring(lua_State *L, int index, size_t *length) {
  return lua_tolstring(L, index, length);
}
static inline int clua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline void clua_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }

#endif
