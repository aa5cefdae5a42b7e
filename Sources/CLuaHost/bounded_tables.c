// The sandbox's table.move and table.sort: Lua's semantics (the same checks, in the same
// order, with the same messages, named after the function the rule called), with the
// work paid for as it is done, so that a range Lua refuses, or a move a metamethod
// stops early, costs nothing it did not do.
#include "internal.h"

/// Elements moved between two charges: each charge also reads the clock.
enum { CLUA_MOVE_CHUNK = 64 };

/// Whether the value at `argument` can be read (`__index`) or written (`__newindex`) as
/// a table: a table, or a value whose metatable has the metamethod. Otherwise raises
/// Lua's own "table expected" error for the argument.
static void clua_check_table_like(lua_State *L, int argument, int needsIndex, int needsNewIndex) {
  if (lua_type(L, argument) == LUA_TTABLE) return;
  int ok = 0;
  if (lua_getmetatable(L, argument)) {
    ok = 1;
    if (needsIndex) {
      lua_pushliteral(L, "__index");
      ok = lua_rawget(L, -2) != LUA_TNIL;
      lua_pop(L, 1);
    }
    if (ok && needsNewIndex) {
      lua_pushliteral(L, "__newindex");
      ok = lua_rawget(L, -2) != LUA_TNIL;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  if (!ok) luaL_checktype(L, argument, LUA_TTABLE);
}

int clua_bounded_move(lua_State *L) {
  lua_Integer first = luaL_checkinteger(L, 2);
  lua_Integer last = luaL_checkinteger(L, 3);
  lua_Integer target = luaL_checkinteger(L, 4);
  int destination = lua_isnoneornil(L, 5) ? 1 : 5;
  clua_check_table_like(L, 1, 1, 0);
  clua_check_table_like(L, destination, 0, 1);
  if (last >= first) {
    luaL_argcheck(L, first > 0 || last < LUA_MAXINTEGER + first, 3, "too many elements to move");
    lua_Integer count = last - first + 1;
    luaL_argcheck(L, target <= LUA_MAXINTEGER - count + 1, 4, "destination wrap around");
    // Overlapping ranges in one table move from the end, so nothing is read after it
    // was overwritten.
    int forward = target > last || target <= first || (destination != 1 && !lua_compare(L, 1, destination, LUA_OPEQ));
    for (lua_Integer moved = 0; moved < count; moved++) {
      lua_Integer offset = forward ? moved : count - 1 - moved;
      lua_geti(L, 1, first + offset);
      lua_seti(L, destination, target + offset);
      if (moved % CLUA_MOVE_CHUNK == CLUA_MOVE_CHUNK - 1) clua_charge(L, CLUA_MOVE_CHUNK);
    }
    clua_charge(L, count % CLUA_MOVE_CHUNK);
  }
  lua_pushvalue(L, destination);
  return 1;
}

/// Runs the original library function (upvalue 1, a C function) in this very call, so
/// that its errors name the function the rule called, at the rule's line, as Lua's do.
static int clua_run_original(lua_State *L) {
  lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
  if (original == NULL) return luaL_error(L, "the sandbox lost a library function");
  return original(L);
}

int clua_bounded_sort(lua_State *L) {
  // A plain table: about n log2 n comparisons, each paid for before it is made, and,
  // without a comparator or with a C one, each as long as the strings it compares (a Lua
  // comparator's own instructions are counted as it runs). Anything else is Lua's own to
  // check.
  int plainTable = lua_type(L, 1) == LUA_TTABLE;
  if (plainTable && lua_getmetatable(L, 1)) {
    lua_pop(L, 1);
    plainTable = 0;
  }
  if (plainTable) {
    lua_Integer count = (lua_Integer)lua_rawlen(L, 1);
    if (count > 1) {
      double perComparison = 1;
      // A C comparator (rawequal, say) does its work where no hook counts it: its
      // comparisons cost what Lua's own would.
      if ((lua_isnoneornil(L, 2) || lua_iscfunction(L, 2)) && lua_checkstack(L, 1)) {
        double bytes = 0;
        for (lua_Integer index = 1; index <= count; index++) {
          if (lua_rawgeti(L, 1, index) == LUA_TSTRING) bytes += (double)lua_rawlen(L, -1);
          lua_pop(L, 1);
          if (index % 1024 == 0) clua_charge(L, 1024);
        }
        perComparison += bytes / (double)count / 16;
      }
      double comparisons = (double)count;
      for (lua_Integer rest = count; rest > 1; rest /= 2) comparisons += (double)count;
      double cost = comparisons * perComparison;
      clua_charge(L, cost > 4.0e18 ? -1 : (long long)cost);
    }
  }
  return clua_run_original(L);
}

int clua_bounded_rep(lua_State *L) {
  // Lua's rep loops n times even when the result is empty ("":rep(1e15) copies nothing,
  // 10^15 times): an empty result is given at once. Everything else is Lua's rep, whose
  // result, under the cap, the allocator pays for.
  size_t length = 0, separatorLength = 0;
  luaL_checklstring(L, 1, &length);
  lua_Integer count = luaL_checkinteger(L, 2);
  luaL_optlstring(L, 3, "", &separatorLength);
  if (count > 0 && length + separatorLength == 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  return clua_run_original(L);
}

/// A position in a string of `length` bytes as Lua's utf8 functions read it: negative
/// counts from the end.
static lua_Integer clua_relative_position(lua_Integer position, size_t length) {
  if (position >= 0) return position;
  // Compared, not negated: -math.mininteger overflows.
  if (position < -(lua_Integer)length) return 0;
  return (lua_Integer)length + position + 1;
}

int clua_bounded_by_range(lua_State *L) {
  // Work linear in the bytes from argument 2 (default 1) to argument 3 (default: the
  // end, or argument 2 when upvalue 2 is true), paid for before it is done; arguments
  // Lua would refuse are left to it.
  if (lua_type(L, 1) == LUA_TSTRING) {
    size_t length = lua_rawlen(L, 1);
    int isnum = 1;
    lua_Integer first = lua_isnoneornil(L, 2) ? 1 : lua_tointegerx(L, 2, &isnum);
    int endIsFirst = lua_toboolean(L, lua_upvalueindex(2));
    lua_Integer last = -1;
    if (!lua_isnoneornil(L, 3)) {
      int lastIsnum = 1;
      last = lua_tointegerx(L, 3, &lastIsnum);
      isnum = isnum && lastIsnum;
    } else if (endIsFirst) {
      last = first;
    }
    if (isnum) {
      // Only bytes of the string are scanned: a range past its end is Lua's error to raise.
      lua_Integer from = clua_relative_position(first, length);
      lua_Integer to = clua_relative_position(last, length);
      if (to > (lua_Integer)length) to = (lua_Integer)length;
      if (from < 1) from = 1;
      if (to >= from) clua_charge(L, (long long)((to - from + 1) / 16));
    }
  }
  return clua_run_original(L);
}

/// The original (upvalue 1) after paying an instruction for every 16 bytes of its string
/// arguments: for functions whose work is linear in a string they scan (`tonumber` of a
/// long numeral, `string.pack` and `unpack` and `packsize` over a long format).
static int clua_bounded_by_length(lua_State *L) {
  size_t bytes = 0;
  int count = lua_gettop(L);
  for (int index = 1; index <= count; index++) {
    if (lua_type(L, index) == LUA_TSTRING) bytes += lua_rawlen(L, index);
  }
  clua_charge(L, (long long)(bytes / 16));
  return clua_run_original(L);
}

int clua_wrap_by_length(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  lua_pushcclosure(L, clua_bounded_by_length, 1);
  return 1;
}

int clua_wrap_by_range(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 2);
  lua_pushcclosure(L, clua_bounded_by_range, 2);
  return 1;
}

/// `next` of the sandbox: Lua's, except that a host object is walked through the table
/// behind it (upvalue 1: sealed value -> backing), a view with its own walk (upvalue 2:
/// view -> walk function), and the key trusted code keeps for itself (upvalue 3) is
/// never given. A C function, so its errors name `next` and the rule's line as Lua's do.
static int clua_sealed_next(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 2);
  lua_pushvalue(L, 1);
  if (lua_rawget(L, lua_upvalueindex(1)) == LUA_TNIL) {
    lua_pop(L, 1);
    return lua_next(L, 1) ? 2 : (lua_pushnil(L), 1);
  }
  lua_pushvalue(L, 1);
  if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) {
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 2);
    return 2;
  }
  lua_pop(L, 1);
  lua_pushvalue(L, 2);
  if (!lua_next(L, 3)) return (lua_pushnil(L), 1);
  if (!lua_rawequal(L, -2, lua_upvalueindex(3))) return 2;
  lua_pop(L, 1);
  return lua_next(L, 3) ? 2 : (lua_pushnil(L), 1);
}

int clua_make_sealed_next(lua_State *L) {
  lua_settop(L, 3);
  lua_pushcclosure(L, clua_sealed_next, 3);
  return 1;
}

/// The function coroutine.wrap returns: resumes its coroutine (upvalue 1) with the
/// sandbox's bounded resume. As Lua's: on an error inside the coroutine, the coroutine is
/// closed and an error its to-be-closed variables raise wins; a string error gets the
/// caller's position.
static int clua_wrapped_resume(lua_State *L) {
  lua_State *thread = lua_tothread(L, lua_upvalueindex(1));
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  int returned = clua_bounded_resume(L);
  if (lua_toboolean(L, -returned)) return returned - 1;
  int status = thread != NULL ? lua_status(thread) : LUA_OK;
  // A coroutine the count hook stopped is not reset: its to-be-closed variables would
  // run with hooks off (see clua_mark_stopped).
  if (status != LUA_OK && status != LUA_YIELD && !clua_was_stopped(thread)) {
    lua_pop(L, 1);
    status = clua_bounded_reset(L, thread);
    lua_xmove(thread, L, 1);
  }
  if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
    // The cap's error, with a position in front, is still the cap's.
    int isMemoryError = clua_is_memory_error(L, -1);
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
    if (isMemoryError) clua_mark_memory_error(L);
  }
  return lua_error(L);
}

int clua_bounded_wrap(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_State *thread = lua_newthread(L);
  lua_pushvalue(L, 1);
  lua_xmove(L, thread, 1);
  lua_pushcclosure(L, clua_wrapped_resume, 1);
  return 1;
}

/// Pays for one more element of a long loop: a charge (which reads the clock) every
/// CLUA_MOVE_CHUNK elements, so a loop the count hook cannot see still meets the budget
/// and the deadline, however long a length a `__len` reports or an `__index` chain runs.
static inline void clua_pay_element(lua_State *L, lua_Integer done) {
  if (done % CLUA_MOVE_CHUNK == CLUA_MOVE_CHUNK - 1) clua_charge(L, CLUA_MOVE_CHUNK);
}

int clua_bounded_insert(lua_State *L) {
  clua_check_table_like(L, 1, 1, 1);
  lua_Integer firstEmpty = luaL_len(L, 1) + 1;
  lua_Integer position = firstEmpty;
  switch (lua_gettop(L)) {
  case 2: break;
  case 3: {
    position = luaL_checkinteger(L, 2);
    // Unsigned: one comparison tells both 1 <= position and position <= firstEmpty.
    luaL_argcheck(L, (lua_Unsigned)position - 1u < (lua_Unsigned)firstEmpty, 2, "position out of bounds");
    lua_Integer done = 0;
    for (lua_Integer index = firstEmpty; index > position; index--, done++) {
      lua_geti(L, 1, index - 1);
      lua_seti(L, 1, index);
      clua_pay_element(L, done);
    }
    break;
  }
  default: return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, position);
  return 0;
}

int clua_bounded_remove(lua_State *L) {
  clua_check_table_like(L, 1, 1, 1);
  lua_Integer size = luaL_len(L, 1);
  lua_Integer position = luaL_optinteger(L, 2, size);
  // Argument 1, as Lua 5.4.4 says it (the position is checked against the table's size).
  if (position != size) {
    luaL_argcheck(L, (lua_Unsigned)position - 1u <= (lua_Unsigned)size, 1, "position out of bounds");
  }
  lua_geti(L, 1, position);
  lua_Integer done = 0;
  for (; position < size; position++, done++) {
    lua_geti(L, 1, position + 1);
    lua_seti(L, 1, position);
    clua_pay_element(L, done);
  }
  lua_pushnil(L);
  lua_seti(L, 1, position);
  return 1;
}

/// Adds element `index` of the table at 1 to the buffer, as concat requires: a string or
/// a number.
static void clua_concat_element(lua_State *L, luaL_Buffer *buffer, lua_Integer index) {
  lua_geti(L, 1, index);
  if (!lua_isstring(L, -1)) {
    luaL_error(L, "invalid value (%s) at index %I in table for 'concat'", luaL_typename(L, -1), (LUAI_UACINT)index);
  }
  luaL_addvalue(buffer);
}

int clua_bounded_concat(lua_State *L) {
  clua_check_table_like(L, 1, 1, 0);
  lua_Integer last = luaL_len(L, 1);
  size_t separatorLength = 0;
  const char *separator = luaL_optlstring(L, 2, "", &separatorLength);
  lua_Integer index = luaL_optinteger(L, 3, 1);
  last = luaL_optinteger(L, 4, last);
  luaL_Buffer buffer;
  luaL_buffinit(L, &buffer);
  lua_Integer done = 0;
  for (; index < last; index++, done++) {
    clua_concat_element(L, &buffer, index);
    luaL_addlstring(&buffer, separator, separatorLength);
    clua_pay_element(L, done);
  }
  if (index == last) clua_concat_element(L, &buffer, index);
  luaL_pushresult(&buffer);
  return 1;
}

int clua_bounded_unpack(lua_State *L) {
  lua_Integer first = luaL_optinteger(L, 2, 1);
  lua_Integer last = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
  if (first > last) return 0;
  lua_Unsigned count = (lua_Unsigned)last - (lua_Unsigned)first;
  if (count >= (unsigned int)INT_MAX || !lua_checkstack(L, (int)(++count))) {
    return luaL_error(L, "too many results to unpack");
  }
  // Pushing is paid for before it is done: the values are on the stack, under the cap.
  clua_charge(L, (long long)count);
  lua_Integer done = 0;
  for (; first < last; first++, done++) {
    lua_geti(L, 1, first);
    clua_pay_element(L, done);
  }
  lua_geti(L, 1, last);
  return (int)count;
}
