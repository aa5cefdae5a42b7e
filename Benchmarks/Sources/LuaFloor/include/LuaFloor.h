// The yardstick: one rule called straight through the Lua C API, with plain tables for
// `info` and the target, and nothing else (no sandbox, no budget, no trace).
#ifndef LUA_FLOOR_H
#define LUA_FLOOR_H

typedef struct LuaFloor LuaFloor;

/// Loads `source` (a rule file) and prepares `info` and a target of type `targetType`;
/// NULL when the source does not load or has no dropUpdated for that type.
LuaFloor *lua_floor_open(const char *source, const char *targetType);

/// Updates info.location and info.globalLocation, calls dropUpdated(info, target) and
/// returns the proposal: 0 move, 1 copy, 2 forbidden, 3 cancel, -1 anything else.
int lua_floor_call(LuaFloor *floor, double x, double y);

/// The smallest host that could serve the rule: `info.location`, the handler, `info`,
/// the target and the keys `x` and `y` sit in stack slots for good; a call writes
/// `location.x` and `location.y` (all the rule reads of the pointer), calls
/// dropUpdated(info, target) and tells the proposal by its interned string's address.
/// Prepare with lua_floor_prepare_minimal once; returns as lua_floor_call does.
void lua_floor_prepare_minimal(LuaFloor *floor);
int lua_floor_minimal_call(LuaFloor *floor, double x, double y);

/// Installs a count hook that does nothing, as an instruction budget needs one: in Lua
/// 5.4 any count hook sends every VM instruction through the hook check.
void lua_floor_count_instructions(LuaFloor *floor);

void lua_floor_close(LuaFloor *floor);

#endif
