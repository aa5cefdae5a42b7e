// Declarations shared by the files of this target and no one else.
#ifndef CLUA_HOST_INTERNAL_H
#define CLUA_HOST_INTERNAL_H

#include <time.h>

#include "CLuaHost.h"

#include "budget.h"

/// Instructions between count-hook checks on the main thread, in coroutines, and once a
/// call has shown that its instructions are slow (each one working on large values).
enum { CLUA_MAIN_STEP = 1000, CLUA_THREAD_STEP = 100 };

void clua_hook(lua_State *L, lua_Debug *ar);
/// The message handler of every protected call the host makes (calls.c).
int clua_traceback(lua_State *L);
/// The C function behind every Swift function Lua can call (calls.c).
int clua_trampoline(lua_State *L);

/// luaL_error and luaL_typeerror, declared as what they are: they never return (they
/// longjmp), so the compiler and the analyzer follow the real control flow.
_Noreturn void clua_raise(lua_State *L, const char *format, ...);
_Noreturn void clua_raise_type_error(lua_State *L, int argument, const char *expected);

/// luaL_checklstring, which raises rather than return NULL; said here so the analyzer
/// knows it.
static inline const char *clua_check_string(lua_State *L, int argument, size_t *length) {
  const char *text = luaL_checklstring(L, argument, length);
  if (text == NULL) clua_raise_type_error(L, argument, "string");
  return text;
}
/// Adds `instructions` to the call's count and checks the clock: the price of work
/// done in C, raised as the budget's own errors.
void clua_charge(lua_State *L, long long instructions);
/// Raises the error of a spent budget or a passed deadline in `L`, if either happened.
void clua_raise_if_spent(lua_State *L, clua_Budget *budget);
int clua_step_for(const clua_Budget *budget, lua_State *L);
/// The error value on top of `L`, which is raised next, is the memory cap's: kept in
/// the budget's slot (setting an existing registry slot allocates nothing).
void clua_mark_memory_error(lua_State *L);
/// Calls `worker` with the `arguments` values on top, in a protected call; the worker
/// leaves a registry slot (an integer) as its one result. That slot, or LUA_NOREF when the
/// call raised (memory ran out): what pushes.c and state.c keep, made without a jump
/// over the host's frames.
int clua_protected_ref(lua_State *L, lua_CFunction worker, int arguments);
/// Whether the value at `index` is the memory cap's error of this call.
int clua_is_memory_error(lua_State *L, int index);
/// clua_forget_stale_readings once the caller saw the version move, with five free
/// stack slots at hand.
void clua_forget_readings(lua_State *L, clua_Budget *budget);
/// Empties the registry table `table` (not 0), with four free stack slots at hand.
void clua_empty_registry_table(lua_State *L, int table);

/// A clock a few milliseconds coarse but four times cheaper, for the start of a call.
static inline long long clua_now_coarse(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
  return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/// Puts the running call's deadline under the watchdog (watchdog.c), which interrupts a
/// call still running past it at its next instruction, and, when the call counts lazily
/// (`armPending`), sets its count hook once it has run CLUA_LAZY_ARM_MS. Returns 0 when
/// the watchdog cannot watch (no deadline, no thread): the caller then counts at once.
int clua_watch_call(clua_Budget *budget);
/// The call ended: the watchdog stops watching it (and watches the call it ran inside).
void clua_unwatch_call(clua_Budget *budget);

/// Arms the count hook for one call: clua_arm, inlined into the handler call of a
/// pointer step, which has the budget at hand.
static inline void clua_arm_budget(lua_State *L, clua_Budget *budget, long long instructionLimit) {
  budget->limits.instructionLimit = instructionLimit;
  budget->limits.instructionsUsed = 0;
  budget->limits.instructionsExhausted = 0;
  budget->memory.memoryErrorRaised = 0;
  budget->limits.raisedInHook = 0;
  budget->memory.endedByMemoryLimit = 0;
  budget->limits.countingInstructions = 1;
  budget->memory.memoryErrorPending = 0;
  budget->memory.enforceMemory = 1;
  budget->limits.timeExceeded = 0;
  budget->host.runningThread = L;
  // Lazily only with a deadline the watchdog watches: its signal sets the hook. Any
  // hook an earlier call left goes first, so that a signal cannot be undone here.
  int lazily = budget->limits.lazyCounting && budget->limits.timeLimit != 0 && budget->host.lineObserver == NULL;
  if (lazily) lua_sethook(L, NULL, 0, 0);
  budget->limits.armPending = lazily;
  int watched = 0;
  if (budget->limits.timeLimit != 0) {
    budget->limits.callStart = clua_now_coarse();
    budget->limits.deadline = budget->limits.callStart + budget->limits.timeLimit;
    watched = clua_watch_call(budget);
  }
  if (lazily && watched) return;
  budget->limits.armPending = 0;
  int step = clua_step_for(budget, L);
  int mask = LUA_MASKCOUNT | (budget->host.lineObserver ? LUA_MASKLINE : 0);
  lua_sethook(L, clua_hook, mask, step);
}

/// The call bracket's opening, shared by clua_call and clua_call_with_points so that
/// every call into Lua begins alike: what trusted Lua read of an older version of the
/// embedder's data or of the last call is forgotten, and the outermost call arms the
/// budget. Needs five free stack slots. Returns whether the call is the outermost.
static inline int clua_enter_call(lua_State *L, clua_Budget *budget, long long instructionLimit) {
  if (budget->host.watchedVersion != NULL && *budget->host.watchedVersion != budget->host.readingsVersion) {
    clua_forget_readings(L, budget);
  }
  // A flag, not a look at the table: most calls read nothing of their context.
  if (budget->host.callReadingsFilled) {
    clua_empty_registry_table(L, budget->host.callReadings);
    budget->host.callReadingsFilled = 0;
  }
  int outermost = budget->host.callDepth == 0;
  budget->host.callDepth++;
  if (outermost) clua_arm_budget(L, budget, instructionLimit);
  return outermost;
}

/// The call bracket's close: the outermost call stops counting.
static inline void clua_leave_call(clua_Budget *budget, int outermost) {
  if (outermost) {
    clua_unwatch_call(budget);
    budget->limits.countingInstructions = 0;
    budget->memory.enforceMemory = 0;
    budget->host.runningThread = NULL;
  }
  budget->host.callDepth--;
}

int clua_bounded_resume(lua_State *L);
/// lua_resetthread of a coroutine under the running call's limits (budget.c).
int clua_bounded_reset(lua_State *L, lua_State *thread);
/// Marks a coroutine that died of an error the count hook raised: hooks are off in it
/// for good, so its to-be-closed variables must never run.
void clua_mark_stopped(lua_State *thread);
/// Whether `thread` is a coroutine clua_mark_stopped marked.
int clua_was_stopped(lua_State *thread);
/// coroutine.close as Lua's, which leaves a stopped coroutine unclosed.
int clua_bounded_close(lua_State *L);
/// `load(chunk, chunkName, env)` for rules, text only: as Lua's load, but paid for and
/// compiled 4 KB at a time with the call's deadline read between pieces.
int clua_bounded_load(lua_State *L);
int clua_charge_function(lua_State *L);
int clua_bounded_move(lua_State *L);
/// string.rep, but an empty result at once (upvalue 1: Lua's rep).
int clua_bounded_rep(lua_State *L);
/// The original (upvalue 1) after paying for the bytes of the range it will scan.
int clua_bounded_by_range(lua_State *L);
/// `byRange(f, endIsFirst)`: f's bounded twin (clua_bounded_by_range).
int clua_wrap_by_range(lua_State *L);
/// `byLength(f)`: f, after paying an instruction per 16 bytes of its string arguments.
int clua_wrap_by_length(lua_State *L);
int clua_raised_in_hook_function(lua_State *L);
int clua_bounded_insert(lua_State *L);
int clua_bounded_remove(lua_State *L);
int clua_bounded_concat(lua_State *L);
int clua_bounded_unpack(lua_State *L);
int clua_bounded_wrap(lua_State *L);
/// `makeNext(sealed, views, hidden)`: the sandbox's `next` over those tables.
int clua_make_sealed_next(lua_State *L);
/// Sorts with Lua's own sort, its first upvalue, once the arguments are checked and the
/// comparisons paid for.
int clua_bounded_sort(lua_State *L);
int clua_bounded_find(lua_State *L);
int clua_bounded_match(lua_State *L);
int clua_bounded_gmatch(lua_State *L);
int clua_bounded_gsub(lua_State *L);

#endif
