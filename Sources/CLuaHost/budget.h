// The budget of one lua_State, in three parts: what it may hold (memory), what a call may
// run (limits), and what links it to the host. Only this target's C sees it: the host
// reads what it needs through the accessors CLuaHost.h declares.
#ifndef CLUA_HOST_BUDGET_H
#define CLUA_HOST_BUDGET_H

#include "CLuaHost.h"

#pragma clang assume_nonnull begin

/// What a state may hold: the Lua heap, the host's bytes held for rules, the cap, and the
/// memory errors raised under it.
typedef struct clua_Memory {
  size_t memoryInUse;
  size_t memoryLimit;
  /// Bytes the host holds on behalf of rules outside the Lua heap (printed lines,
  /// stored data); they count against the same cap.
  size_t externalBytes;
  /// The top of the cap kept back so that going over it can be reported, with the
  /// rule's file and line, before the cap itself is reached.
  size_t memoryReserve;
  /// The limit holds only while rule code runs; the host's own pushes never fail.
  int enforceMemory;
  /// Rule code reached the reserve: the hook raises a located error at once.
  int memoryErrorPending;
  /// The registry slot that keeps the error value last raised for the memory cap (its
  /// reserve reached, or the host refusing to hold more) alive, whether one was raised in
  /// this call, and whether that value is what ended the call: the message handler
  /// compares the value, never its text, so a rule that catches the error and raises its
  /// own is not taken for a memory limit, and one that raises it again is. (An
  /// allocation the cap refuses raises Lua's own memory error, LUA_ERRMEM.)
  int memoryErrorSlot;
  int memoryErrorRaised;
  int endedByMemoryLimit;
} clua_Memory;

/// What a call may run: its instruction budget, its deadline, and how the count hook
/// keeps them.
typedef struct clua_Limits {
  long long instructionLimit;
  long long instructionsUsed;
  int countingInstructions;
  int instructionsExhausted;
  /// The last clua_loadtext stopped at the time limit.
  int compileTimedOut;
  /// The count hook is raising an error: Lua runs no hook until it is handled, so an
  /// xpcall message handler must not run rule code then.
  int raisedInHook;
  /// Wall-clock limit of one call in nanoseconds; 0 for none.
  long long timeLimit;
  long long deadline;
  /// When the running call began (the watchdog arms a lazy count from it).
  long long callStart;
  int timeExceeded;
  unsigned allocationsSinceClock;
  /// The budget of the call this one runs inside, on the same thread (a test's own
  /// runtime calling into a simulation's), which the watchdog watches again once this
  /// call ends.
  struct clua_Budget *_Nullable outerWatchedBudget;
  /// Calls count their instructions only once they have run for a while: the count hook,
  /// which in Lua 5.4 sends every instruction through a check while it is set, is set by
  /// the watchdog's signal (CLUA_LAZY_ARM_MS into the call), and the deadline bounds what
  /// runs before. For code whose budget is a coarse bound, not a count anyone reads (a
  /// test file's own code); rule code counts from its first instruction.
  int lazyCounting;
  /// The running call counts lazily and its count hook is not set yet.
  volatile int armPending;
} clua_Limits;

/// What links the state to the host: its threads, the words results are classified by,
/// the readings trusted Lua keeps, the Swift functions, and the push plan.
typedef struct clua_HostLink {
  /// The thread running rule code now (the main thread or a resumed coroutine).
  lua_State *_Nullable mainThread;
  lua_State *_Nullable runningThread;
  /// Called for every executed line while coverage is on; must not raise.
  void (*_Nullable lineObserver)(void *_Nullable context, const char *source, int line);
  void *_Nullable lineObserverContext;
  /// The caller's symbols, interned: a result is one of them when it is the same string.
  const void *_Nullable symbols[CLUA_MAX_SYMBOLS];
  /// Their bytes, owned by the interned strings, which the registry keeps alive.
  const char *_Nullable symbolTexts[CLUA_MAX_SYMBOLS];
  size_t symbolLengths[CLUA_MAX_SYMBOLS];
  int symbolCount;
  /// The keys a table result gives its symbol and its number under.
  const char *_Nullable symbolKey;
  const char *_Nullable numberKey;
  /// A table result's flag key (`open`): read as a boolean beside the number.
  const char *_Nullable flagKey;
  /// Calls into Lua now running: only the outermost arms the budget.
  int callDepth;
  /// The version of the embedder's data that trusted Lua keeps readings of, where the
  /// embedder keeps it; the version the readings belong to; and the registry slots of
  /// the lists of readings (tables to empty, `{table, key...}` fields to remove).
  const long *_Nullable watchedVersion;
  long readingsVersion;
  int readingsList;
  int fieldReadingsList;
  /// The registry slot of the table of what trusted Lua read of the running call (its
  /// context: an index, an operation...), emptied as every call begins that follows one
  /// that filled it (`callReadingsFilled`); 0 for none.
  int callReadings;
  int callReadingsFilled;
  /// Runs a Swift function exposed to Lua: returns the number of results, or -1
  /// when it left an error message on the stack for the trampoline to raise.
  int (*_Nullable swiftDispatcher)(lua_State *L, void *_Nullable function);
  /// Releases a Swift function's box once the collector freed the closure that held it.
  void (*_Nullable swiftRelease)(void *_Nonnull function);
  /// The plan of the values the host gives Lua next (one at a time: planned, then pushed
  /// before any Lua runs).
  clua_PushPlan plan;
} clua_HostLink;

/// Limits and counters of one lua_State, reached from the allocator and the hook
/// through the allocator's user-data pointer.
struct clua_Budget {
  clua_Memory memory;
  clua_Limits limits;
  clua_HostLink host;
};

#pragma clang assume_nonnull end

#endif
