// Calls into Lua and out of it: the protected call with a traceback, the trampoline
// that runs Swift functions (a Lua error is raised here, in C, never across a Swift
// frame), and the allocation-free call of a pointer step.
#include <string.h>

#include "internal.h"

/// Message handler for protected calls: appends a traceback to string messages, and
/// notes whether the error is the memory cap's own (the same value, not the same text).
/// The message stays a Lua string throughout: as a C string, a NUL in it would cut it short.
int clua_traceback(lua_State *L) {
  clua_Budget *budget = clua_budget(L);
  budget->memory.endedByMemoryLimit = clua_is_memory_error(L, 1);
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

int clua_call(lua_State *L, int nargs, int nresults, long long instructionLimit, int *outermost) {
  // The message handler's slot, and the forgetting's five.
  if (!lua_checkstack(L, 6)) return -1;
  clua_Budget *budget = clua_budget(L);
  int base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, clua_traceback);
  lua_insert(L, base);
  *outermost = clua_enter_call(L, budget, instructionLimit);
  int status = lua_pcall(L, nargs, nresults, base);
  clua_leave_call(budget, *outermost);
  lua_remove(L, base);
  return status;
}

int clua_trampoline(lua_State *L) {
  clua_Budget *budget = clua_budget(L);
  void *const *slot = (void *const *)lua_touserdata(L, lua_upvalueindex(1));
  void *function = slot != NULL ? *slot : NULL;
  if (budget->host.swiftDispatcher == NULL || function == NULL) clua_raise(L, "the host is not ready");
  // Swift plans its results (or its error message) and returns; they are pushed here,
  // in C, under the cap like any allocation of the call.
  clua_plan(L);
  int results = budget->host.swiftDispatcher(L, function);
  int isMemoryError = budget->host.plan.isMemoryError;
  clua_push_plan(L, &budget->host.plan);
  if (results < 0) {
    if (isMemoryError) clua_mark_memory_error(L);
    return lua_error(L);
  }
  return results;
}

/// The code of the symbol at `index`, or -1. Short strings are interned, so the common
/// case is a pointer comparison; a long one is compared by its bytes.
static inline __attribute__((always_inline)) int clua_symbol_code(lua_State *L, const clua_Budget *budget, int index) {
  if (lua_type(L, index) != LUA_TSTRING) return -1;
  const void *pointer = lua_topointer(L, index);
  for (int code = 0; code < budget->host.symbolCount; code++) {
    if (budget->host.symbols[code] == pointer) return code;
  }
  size_t length = 0;
  const char *text = lua_tolstring(L, index, &length);
  for (int code = 0; code < budget->host.symbolCount; code++) {
    const char *symbol = budget->host.symbolTexts[code];
    if (symbol != NULL && budget->host.symbolLengths[code] == length && memcmp(symbol, text, length) == 0) return code;
  }
  return -1;
}

static inline __attribute__((always_inline)) void clua_classify(lua_State *L, const clua_Budget *budget, int index, clua_CallResult *out) {
  out->numberKind = CLUA_NUMBER_NONE;
  out->symbol = -1;
  out->flag = 0;
  switch (lua_type(L, index)) {
  case LUA_TNIL:
  case LUA_TNONE:
    out->kind = CLUA_RESULT_NONE;
    return;
  case LUA_TBOOLEAN:
    out->kind = lua_toboolean(L, index) ? CLUA_RESULT_TRUE : CLUA_RESULT_FALSE;
    return;
  case LUA_TSTRING:
    out->symbol = clua_symbol_code(L, budget, index);
    out->kind = out->symbol >= 0 ? CLUA_RESULT_SYMBOL : CLUA_RESULT_OTHER;
    return;
  case LUA_TTABLE: {
    int table = lua_absindex(L, index);
    out->kind = CLUA_RESULT_OTHER;
    // Room for a key and a value: the call's own result slot is already in use.
    if (!lua_checkstack(L, 2) || budget->host.symbolKey == NULL || budget->host.numberKey == NULL || budget->host.flagKey == NULL)
      return;
    lua_pushstring(L, budget->host.symbolKey);
    lua_rawget(L, table);
    out->symbol = clua_symbol_code(L, budget, -1);
    lua_pop(L, 1);
    if (out->symbol < 0) return;
    out->kind = CLUA_RESULT_SYMBOL;
    lua_pushstring(L, budget->host.numberKey);
    lua_rawget(L, table);
    if (lua_isinteger(L, -1)) {
      out->numberKind = CLUA_NUMBER_INTEGER;
      out->integerNumber = lua_tointegerx(L, -1, NULL);
    } else if (lua_type(L, -1) == LUA_TNUMBER) {
      out->numberKind = CLUA_NUMBER_FLOAT;
      out->floatNumber = lua_tonumberx(L, -1, NULL);
    } else if (!lua_isnil(L, -1)) {
      out->numberKind = CLUA_NUMBER_NOT_A_NUMBER;
    }
    lua_pop(L, 1);
    lua_pushstring(L, budget->host.flagKey);
    lua_rawget(L, table);
    // Exactly `true`: `open = "yes"` or `open = 0` is no answer to spring-load on.
    out->flag = lua_type(L, -1) == LUA_TBOOLEAN && lua_toboolean(L, -1);
    lua_pop(L, 1);
    return;
  }
  default:
    out->kind = CLUA_RESULT_OTHER;
  }
}

/// Writes a point in place into a table: `x` and `y` (the table's metatable reads `[1]`
/// and `[2]` from them). The table holds these keys already, so no write allocates.
static inline __attribute__((always_inline)) void clua_write_point(lua_State *L, int table, double x, double y) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, table);
  lua_pushvalue(L, CLUA_SLOT_KEY_X);
  lua_pushnumber(L, x);
  lua_rawset(L, -3);
  lua_pushvalue(L, CLUA_SLOT_KEY_Y);
  lua_pushnumber(L, y);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void clua_call_with_points(lua_State *L, clua_Budget *budget, const clua_PointCall *call, long long instructionLimit,
                           clua_CallResult *out) {
  // Six slots: the three values pushed below, the point writes' two, the classification's
  // two, less the result's. An outermost call starts from the resident slots, and the
  // state's base frame keeps LUA_MINSTACK (20) free above them; a nested one asks.
  if (budget->host.callDepth > 0 && !lua_checkstack(L, 6)) {
    // Nothing pushed (a message would allocate): the caller reports it.
    out->status = LUA_ERRERR;
    out->kind = CLUA_RESULT_OTHER;
    out->leftOnStack = 0;
    out->outermost = 0;
    return;
  }
  clua_write_point(L, call->point, call->x, call->y);
  clua_write_point(L, call->globalPoint, call->globalX, call->globalY);
  int outermost = clua_enter_call(L, budget, instructionLimit);
  lua_rawgeti(L, LUA_REGISTRYINDEX, call->function);
  lua_rawgeti(L, LUA_REGISTRYINDEX, call->first);
  lua_rawgeti(L, LUA_REGISTRYINDEX, call->second);
  out->status = lua_pcall(L, 2, 1, CLUA_SLOT_TRACEBACK);
  clua_leave_call(budget, outermost);
  out->outermost = outermost;
  if (out->status == LUA_OK) clua_classify(L, budget, -1, out);
  if (out->status == LUA_OK && out->kind != CLUA_RESULT_OTHER) {
    lua_pop(L, 1);
    out->leftOnStack = 0;
  } else {
    out->leftOnStack = 1;
  }
}
