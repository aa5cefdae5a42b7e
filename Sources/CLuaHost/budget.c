// The limits of one lua_State: the allocator that holds the memory cap, the count hook
// that holds the instruction budget and the wall-clock deadline, and the charges that
// bound work done inside C functions, where no hook can reach.
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "internal.h"


long long clua_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}


/// Makes the hook run before the next instruction of the running thread. Lua allows
/// lua_sethook at any moment (lua.c calls it from a signal handler); it only sets fields.
static inline void clua_interrupt(clua_Budget *budget) {
  lua_State *thread = budget->host.runningThread;
  budget->limits.armPending = 0;
  if (thread != NULL) lua_sethook(thread, clua_hook, lua_gethookmask(thread) | LUA_MASKCOUNT, 1);
}

/// Whether the call's deadline has passed; reads the clock only for large blocks or
/// every 256 allocations, since the allocator is hot.
static inline int clua_allocation_out_of_time(clua_Budget *budget, size_t size) {
  if (budget->limits.timeLimit == 0) return 0;
  if (size < 4096 && ++budget->limits.allocationsSinceClock < 256) return 0;
  budget->limits.allocationsSinceClock = 0;
  if (clua_now() <= budget->limits.deadline) return 0;
  budget->limits.timeExceeded = 1;
  clua_interrupt(budget);
  return 1;
}

static void *clua_allocate(void *ud, void *ptr, size_t osize, size_t nsize) {
  clua_Budget *budget = (clua_Budget *)ud;
  size_t oldSize = ptr ? osize : 0;
  if (nsize == 0) {
    free(ptr);
    budget->memory.memoryInUse -= oldSize;
    return NULL;
  }
  // Growing past the cap, or after the deadline, is refused; a shrink never is, as
  // Lua requires.
  if (nsize > oldSize && budget->memory.enforceMemory) {
    size_t after = budget->memory.memoryInUse - oldSize + nsize + budget->memory.externalBytes;
    // Refused, Lua raises its own memory error (LUA_ERRMEM), which a rule may catch:
    // the call goes on with what it has.
    if (after > budget->memory.memoryLimit) return NULL;
    if (clua_allocation_out_of_time(budget, nsize)) return NULL;
    if (after > budget->memory.memoryLimit - budget->memory.memoryReserve && !budget->memory.memoryErrorPending) {
      budget->memory.memoryErrorPending = 1;
      clua_interrupt(budget);
    }
  }
  void *block = realloc(ptr, nsize);
  if (block == NULL && nsize <= oldSize) {
    return ptr;
  }
  if (block != NULL) {
    budget->memory.memoryInUse = budget->memory.memoryInUse - oldSize + nsize;
  }
  return block;
}

lua_State *clua_newstate(size_t memoryLimit, long long timeLimit) {
  clua_Budget *budget = (clua_Budget *)calloc(1, sizeof(clua_Budget));
  if (budget == NULL) return NULL;
  budget->memory.memoryLimit = memoryLimit;
  size_t reserve = memoryLimit / 16;
  budget->memory.memoryReserve = reserve > (1 << 20) ? (1 << 20) : reserve;
  budget->limits.timeLimit = timeLimit;
  lua_State *L = lua_newstate(clua_allocate, budget);
  if (L == NULL) {
    free(budget);
    return NULL;
  }
  budget->host.mainThread = L;
  return L;
}

clua_Budget *clua_budget(lua_State *L) {
  void *ud = NULL;
  lua_getallocf(L, &ud);
  return (clua_Budget *)ud;
}

void clua_close(lua_State *L) {
  clua_Budget *budget = clua_budget(L);
  lua_close(L);
  clua_free_plan(&budget->host.plan);
  free(budget);
}

/// From now on every instruction of `L` fails, so a rule's own pcall cannot swallow
/// the error.
static inline void clua_stick(lua_State *L) {
  lua_sethook(L, clua_hook, lua_gethookmask(L) | LUA_MASKCOUNT, 1);
}

/// The count hook's next period: a thousand instructions (a hundred in a coroutine), or
/// fewer, so that it fires at the very instruction that passes the budget. The periods
/// depend on nothing but instructions and the host's charges, never on the clock, so a
/// call fails of its budget at the same point on every run; a slow instruction past the
/// deadline is the watchdog's to stop (watchdog.c).
int clua_step_for(const clua_Budget *budget, lua_State *L) {
  long long step = L == budget->host.mainThread ? CLUA_MAIN_STEP : CLUA_THREAD_STEP;
  long long toPass = budget->limits.instructionLimit - budget->limits.instructionsUsed + 1;
  if (toPass < step) step = toPass < 1 ? 1 : toPass;
  return (int)step;
}

/// Raises the error of a spent budget or a passed deadline in `L`, if either happened.
void clua_raise_if_spent(lua_State *L, clua_Budget *budget) {
  if (budget->limits.instructionsExhausted) {
    clua_stick(L);
    clua_raise(L, "instruction budget of %I instructions exceeded", (lua_Integer)budget->limits.instructionLimit);
  }
  if (budget->limits.timeExceeded) {
    clua_stick(L);
    clua_raise(L, "time limit of %I ms exceeded", (lua_Integer)(budget->limits.timeLimit / 1000000));
  }
}

void clua_mark_memory_error(lua_State *L) {
  clua_Budget *budget = clua_budget(L);
  if (budget->memory.memoryErrorSlot == 0 || !lua_checkstack(L, 1)) return;
  lua_pushvalue(L, -1);
  lua_rawseti(L, LUA_REGISTRYINDEX, budget->memory.memoryErrorSlot);
  budget->memory.memoryErrorRaised = 1;
}

int clua_is_memory_error(lua_State *L, int index) {
  clua_Budget *budget = clua_budget(L);
  if (!budget->memory.memoryErrorRaised || budget->memory.memoryErrorSlot == 0 || !lua_checkstack(L, 1)) return 0;
  index = lua_absindex(L, index);
  lua_rawgeti(L, LUA_REGISTRYINDEX, budget->memory.memoryErrorSlot);
  int same = lua_rawequal(L, index, -1);
  lua_pop(L, 1);
  return same;
}

/// Adds `instructions` to the call's count and checks the clock: the price of work
/// done in C, raised as the budget's own errors.
void clua_charge(lua_State *L, long long instructions) {
  clua_Budget *budget = clua_budget(L);
  if (!budget->limits.countingInstructions) return;
  if (instructions < 0 || instructions > (1LL << 62)) instructions = 1LL << 62;
  budget->limits.instructionsUsed += instructions;
  if (budget->limits.instructionsUsed > budget->limits.instructionLimit) budget->limits.instructionsExhausted = 1;
  if (budget->limits.timeLimit != 0 && clua_now() > budget->limits.deadline) budget->limits.timeExceeded = 1;
  clua_raise_if_spent(L, budget);
}

void clua_hook(lua_State *L, lua_Debug *ar) {
  clua_Budget *budget = clua_budget(L);
  if (ar->event == LUA_HOOKLINE) {
    if (budget->host.lineObserver && lua_getinfo(L, "S", ar)) {
      budget->host.lineObserver(budget->host.lineObserverContext, ar->source, ar->currentline);
    }
    return;
  }
  if (ar->event != LUA_HOOKCOUNT || !budget->limits.countingInstructions) return;
  // Any error raised below is raised inside the hook, where Lua runs no hook: an xpcall
  // message handler would run unbounded (the sandbox's xpcall asks, and skips it).
  budget->limits.raisedInHook = 1;
  budget->limits.instructionsUsed += lua_gethookcount(L);
  if (budget->limits.instructionsUsed > budget->limits.instructionLimit) budget->limits.instructionsExhausted = 1;
  if (budget->limits.timeLimit != 0 && clua_now() > budget->limits.deadline) budget->limits.timeExceeded = 1;
  clua_raise_if_spent(L, budget);
  int step = clua_step_for(budget, L);
  if (lua_gethookcount(L) != step) lua_sethook(L, clua_hook, lua_gethookmask(L), step);
  if (budget->memory.memoryErrorPending) {
    budget->memory.memoryErrorPending = 0;
    // Into the reserve: collect first, as Lua does before it gives up on an allocation,
    // and refuse only what is live.
    lua_gc(L, LUA_GCCOLLECT, 0);
    if (budget->memory.memoryInUse + budget->memory.externalBytes <= budget->memory.memoryLimit - budget->memory.memoryReserve) {
      budget->limits.raisedInHook = 0;
      return;
    }
    luaL_where(L, 1);
    lua_pushfstring(L, "memory limit of %I bytes exceeded", (lua_Integer)budget->memory.memoryLimit);
    lua_concat(L, 2);
    clua_mark_memory_error(L);
    lua_error(L);
  }
  budget->limits.raisedInHook = 0;
}

/// `raisedInHook()`: whether the error being handled was raised by the count hook, where
/// no hook runs.
int clua_raised_in_hook_function(lua_State *L) {
  lua_pushboolean(L, clua_budget(L)->limits.raisedInHook);
  return 1;
}

/// What marks a coroutine the count hook stopped: its address alone, pushed as a light
/// userdata below the error object.
static const char clua_stopped_marker = 0;

void clua_mark_stopped(lua_State *thread) {
  // One slot: a dead thread keeps the slack it had. Without it, the call ends here: a
  // spent budget fails the resumer's next instruction.
  if (!lua_checkstack(thread, 1)) {
    clua_budget(thread)->limits.instructionsExhausted = 1;
    return;
  }
  lua_pushlightuserdata(thread, (void *)&clua_stopped_marker);
  lua_insert(thread, -2);
}

int clua_was_stopped(lua_State *thread) {
  int status = lua_status(thread);
  if (status == LUA_OK || status == LUA_YIELD) return 0;
  int top = lua_gettop(thread);
  for (int index = top; index >= 1 && index >= top - 1; index--) {
    if (lua_touserdata(thread, index) == &clua_stopped_marker) return 1;
  }
  return 0;
}

/// Runs `thread` next under the call's limits: its own count hook, and the watchdog's
/// signals pointed at it.
static void clua_enter_thread(clua_Budget *budget, lua_State *L, lua_State *thread) {
  lua_sethook(thread, clua_hook, lua_gethookmask(L) | LUA_MASKCOUNT, clua_step_for(budget, thread));
  budget->host.runningThread = thread;
  // The signal handler reads runningThread: the store must not move past what follows.
  atomic_signal_fence(memory_order_seq_cst);
}

/// Back in `L` after a coroutine ran: signals point at L again, and a lazy call that the
/// watchdog armed while the coroutine ran counts in L from here on too.
static void clua_return_to(clua_Budget *budget, lua_State *L) {
  budget->host.runningThread = L;
  atomic_signal_fence(memory_order_seq_cst);
  if (!budget->limits.armPending && !(lua_gethookmask(L) & LUA_MASKCOUNT)) {
    lua_sethook(L, clua_hook, lua_gethookmask(L) | LUA_MASKCOUNT, clua_step_for(budget, L));
  }
}

/// lua_resetthread under the running call's limits: the coroutine's to-be-closed
/// variables run in it with its count hook set and the watchdog pointed at it, and a
/// budget or deadline they spent is raised again in L, so that a rule cannot swallow it
/// by returning before L's own hook would have fired.
int clua_bounded_reset(lua_State *L, lua_State *thread) {
  clua_Budget *budget = clua_budget(L);
  int counting = budget->limits.countingInstructions;
  if (counting) clua_enter_thread(budget, L, thread);
  int status = lua_resetthread(thread);
  if (counting) {
    clua_return_to(budget, L);
    clua_raise_if_spent(L, budget);
  }
  return status;
}

/// `coroutine.close`, as Lua 5.4's, except for a coroutine the count hook stopped: its
/// to-be-closed variables would run with hooks off, so they are not run, and close says so.
int clua_bounded_close(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTHREAD);
  lua_State *thread = lua_tothread(L, 1);
  int status = lua_status(thread);
  lua_Debug frame;
  if (thread == L) return luaL_error(L, "cannot close a running coroutine");
  if (status == LUA_OK && lua_getstack(thread, 0, &frame)) return luaL_error(L, "cannot close a normal coroutine");
  if (clua_was_stopped(thread)) {
    lua_pushboolean(L, 0);
    lua_pushliteral(L, "the coroutine was stopped by a limit: its to-be-closed variables are not closed");
    return 2;
  }
  // Dead (finished or failed), suspended in a yield or never started: closed as Lua's.
  status = clua_bounded_reset(L, thread);
  if (status == LUA_OK) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushboolean(L, 0);
  lua_xmove(thread, L, 1);
  return 2;
}

/// The sandbox's `coroutine.resume`: as Lua's, but the coroutine gets its own count
/// hook, the step it ran without reaching that hook is charged (so that no coroutine,
/// however short, runs free), and a budget or deadline spent inside it is raised again
/// in the resumer. All in one C function: nothing can raise between pointing
/// runningThread at the coroutine and pointing it back.
int clua_bounded_resume(lua_State *L) {
  lua_State *thread = lua_tothread(L, 1);
  if (thread == NULL) clua_raise_type_error(L, 1, "coroutine");
  clua_Budget *budget = clua_budget(L);
  int arguments = lua_gettop(L) - 1;
  if (!lua_checkstack(thread, arguments)) {
    lua_pushboolean(L, 0);
    lua_pushliteral(L, "too many arguments to resume");
    return 2;
  }
  int counting = budget->limits.countingInstructions;
  if (counting) {
    // Counted from its first instruction even in a lazy call: its hook stays with it,
    // and its to-be-closed variables may run later, in a close, where only that hook
    // reaches them.
    clua_enter_thread(budget, L, thread);
  }
  lua_xmove(L, thread, arguments);
  int results = 0;
  budget->limits.raisedInHook = 0;
  int status = lua_resume(thread, L, arguments, &results);
  // A coroutine the count hook stopped died inside the hook, where Lua turns hooks off,
  // and in that thread they stay off: its to-be-closed variables must never run, or a
  // `__close` could loop with no limit. It is marked (under its error object), and
  // close and wrap skip it.
  // Which errors the hook raised: a spent budget or deadline (which sticks), or the cap's
  // own error value. A rule's own error, after it caught one of the hook's, is not.
  int raisedByHook = budget->limits.raisedInHook && (budget->limits.instructionsExhausted || budget->limits.timeExceeded ||
                                              (lua_gettop(thread) > 0 && clua_is_memory_error(thread, -1)));
  if (status != LUA_OK && status != LUA_YIELD && raisedByHook) {
    clua_mark_stopped(thread);
    // The resumer gets the error as a result, in its own frame, where hooks run.
    budget->limits.raisedInHook = 0;
  }
  if (counting) {
    clua_return_to(budget, L);
    clua_raise_if_spent(L, budget);
    clua_charge(L, CLUA_THREAD_STEP);
  }
  if (status == LUA_OK || status == LUA_YIELD) {
    if (!lua_checkstack(L, results + 1)) {
      lua_pop(thread, results);
      lua_pushboolean(L, 0);
      lua_pushliteral(L, "too many results to resume");
      return 2;
    }
    lua_pushboolean(L, 1);
    lua_xmove(thread, L, results);
    return results + 1;
  }
  lua_xmove(thread, L, 1);  // the error object (already on top when resuming itself)
  lua_pushboolean(L, 0);
  lua_insert(L, -2);
  return 2;
}

/// The host's own charge, for work done in Swift: like clua_charge, but reports a
/// spent budget (returns 1, the thread's every next instruction failing) instead of
/// raising, since no Lua error may cross a Swift frame.
int clua_charge_or_report(lua_State *L, long long instructions) {
  clua_Budget *budget = clua_budget(L);
  if (!budget->limits.countingInstructions) return 0;
  if (instructions < 0 || instructions > (1LL << 62)) instructions = 1LL << 62;
  budget->limits.instructionsUsed += instructions;
  if (budget->limits.instructionsUsed > budget->limits.instructionLimit) budget->limits.instructionsExhausted = 1;
  if (budget->limits.timeLimit != 0 && clua_now() > budget->limits.deadline) budget->limits.timeExceeded = 1;
  if (!budget->limits.instructionsExhausted && !budget->limits.timeExceeded) return 0;
  clua_stick(L);
  return 1;
}

/// `charge(n)`: the sandbox's bounded wrappers pay for the work a C function will do.
int clua_charge_function(lua_State *L) {
  lua_Number instructions = luaL_checknumber(L, 1);
  clua_charge(L, instructions >= 4.0e18 || instructions != instructions ? -1 : (long long)instructions);
  return 0;
}

void clua_set_external_bytes(lua_State *L, size_t bytes) { clua_budget(L)->memory.externalBytes = bytes; }

void clua_count_lazily(lua_State *L, int lazily) { clua_budget(L)->limits.lazyCounting = lazily != 0; }

void clua_raise(lua_State *L, const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  luaL_where(L, 1);
  lua_pushvfstring(L, format, arguments);
  va_end(arguments);
  lua_concat(L, 2);
  lua_error(L);
  abort();  // lua_error does not return
}

void clua_raise_type_error(lua_State *L, int argument, const char *expected) {
  luaL_typeerror(L, argument, expected);
  abort();  // luaL_typeerror does not return
}
