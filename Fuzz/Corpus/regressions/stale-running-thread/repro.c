// Replays resume-stack-overflow.lua under droprules' own allocator, budget and hook
// (Sources/CLua), with the sandbox's coroutine.resume wrapper as sandbox.lua defines it,
// and reports whether budget->runningThread was left on a coroutine.
//
//   clang -I../../../../Sources/CLua -I/usr/include/lua5.4 repro.c -llua5.4 -o /tmp/repro
//   /tmp/repro resume-stack-overflow.lua            # exit 1: runningThread is stale
//   valgrind /tmp/repro resume-stack-overflow.lua   # invalid read in lua_sethook, SIGSEGV
#include <stdio.h>
#include <stdlib.h>

#include "shim.h"

// sandbox.lua's wrapper, verbatim.
static const char *wrapper = "local bounded = ...\n"
                             "local realResume = coroutine.resume\n"
                             "local prepareResume, settleResume = bounded.prepareResume, bounded.settleResume\n"
                             "function coroutine.resume(thread, ...)\n"
                             "  prepareResume(thread)\n"
                             "  return settleResume(realResume(thread, ...))\n"
                             "end\n";

int main(int argc, char **argv) {
  if (argc < 2) return 64;
  // droprules' defaults: 64 MiB, no deadline here (the deadline takes the same path).
  lua_State *L = clua_newstate(64 << 20, 0);
  luaL_openlibs(L);
  if (luaL_loadstring(L, wrapper) != LUA_OK) return 2;
  clua_push_bounded_library(L);
  lua_call(L, 1, 0);
  if (luaL_loadfile(L, argv[1]) != LUA_OK) {
    fprintf(stderr, "%s\n", lua_tostring(L, -1));
    return 2;
  }
  clua_arm(L, 1000000000);
  int status = lua_pcall(L, 0, 0, 0);
  printf("chunk status %d%s%s\n", status, status ? ": " : "", status ? lua_tostring(L, -1) : "");
  lua_State *running = clua_budget(L)->runningThread;
  clua_disarm(L);
  clua_close(L);
  if (running != L) {
    printf("budget->runningThread %p is not the main thread %p: stale\n", (void *)running, (void *)L);
    return 1;
  }
  printf("budget->runningThread is the main thread\n");
  return 0;
}
