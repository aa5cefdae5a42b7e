// The system Lua 5.4 headers, for the C floor that the benchmarks compare against.
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
