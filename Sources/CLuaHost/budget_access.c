// The host's view of a state's budget: what Swift reads and sets, one function each, so
// the budget's layout stays this target's own (budget.h) and Swift writes none of it.
#include "internal.h"

#pragma clang assume_nonnull begin

int clua_counts_lazily(lua_State *L) { return clua_budget(L)->limits.lazyCounting; }

size_t clua_memory_in_use(lua_State *L) { return clua_budget(L)->memory.memoryInUse; }

size_t clua_external_bytes(lua_State *L) { return clua_budget(L)->memory.externalBytes; }

long long clua_instructions_used(lua_State *L) { return clua_budget(L)->limits.instructionsUsed; }

long long clua_active_deadline(lua_State *L) {
  const clua_Limits *limits = &clua_budget(L)->limits;
  return limits->countingInstructions && limits->timeLimit != 0 ? limits->deadline : 0;
}

int clua_instructions_exhausted(lua_State *L) { return clua_budget(L)->limits.instructionsExhausted; }

int clua_compile_timed_out(lua_State *L) { return clua_budget(L)->limits.compileTimedOut; }

clua_CallEnd clua_call_end(lua_State *L) {
  const clua_Budget *budget = clua_budget(L);
  clua_CallEnd end = {budget->limits.instructionsExhausted, budget->limits.timeExceeded,
                      budget->memory.endedByMemoryLimit};
  return end;
}

void clua_set_host_functions(lua_State *L, int (*dispatcher)(lua_State *L, void *_Nullable function),
                             void (*release)(void *function)) {
  clua_Budget *budget = clua_budget(L);
  budget->host.swiftDispatcher = dispatcher;
  budget->host.swiftRelease = release;
}

void clua_set_line_observer(lua_State *L,
                            void (*_Nullable observer)(void *_Nullable context, const char *source, int line),
                            void *_Nullable context) {
  clua_Budget *budget = clua_budget(L);
  budget->host.lineObserver = observer;
  budget->host.lineObserverContext = observer != NULL ? context : NULL;
}

void clua_watch_version(lua_State *L, const long *version) {
  clua_Budget *budget = clua_budget(L);
  budget->host.watchedVersion = version;
  budget->host.readingsVersion = *version;
}

void clua_set_readings_lists(lua_State *L, int readings, int fieldReadings) {
  clua_Budget *budget = clua_budget(L);
  budget->host.readingsList = readings;
  budget->host.fieldReadingsList = fieldReadings;
}

#pragma clang assume_nonnull end
