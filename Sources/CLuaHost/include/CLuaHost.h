// droprules' own C, around Lua 5.4: the limits of a state (memory cap, instruction
// budget, deadline), patterns and coroutines that pay for their work, protected calls
// that never let a Lua error cross a Swift frame, and the allocation-free call of a
// handler on a pointer step. It knows Lua, not drops: the words a result is classified
// by are the caller's (clua_intern_symbols).
//
// A regular C target, so it is compiled with -Wall -Wextra -Werror and checked by
// clang --analyze (see .ci/run); the CLua system module only wraps Lua's macros.
#ifndef CLUA_HOST_H
#define CLUA_HOST_H

#include <lauxlib.h>
#include <lua.h>
#include <stddef.h>

#pragma clang assume_nonnull begin

/// Symbols a call result is compared with, by the identity of their interned string.
enum { CLUA_MAX_SYMBOLS = 8 };

/// What one step of a push plan pushes or does.
typedef enum clua_PushOpKind {
  CLUA_PUSH_NIL,
  CLUA_PUSH_BOOLEAN,
  CLUA_PUSH_INTEGER,
  CLUA_PUSH_NUMBER,
  CLUA_PUSH_STRING,
  CLUA_PUSH_REFERENCE,
  CLUA_PUSH_TABLE,
  /// Pops a value into the table below it, at an integer key.
  CLUA_PUSH_SET_INDEX,
  /// Pops a key and a value into the table below them.
  CLUA_PUSH_SET_FIELD,
} clua_PushOpKind;

typedef struct clua_PushOp {
  clua_PushOpKind kind;
  /// An integer, a boolean, a registry slot, or a table's sequence count.
  long long integer;
  double number;
  /// A table's field count.
  int fieldCount;
  /// A string's bytes in the plan's byte buffer.
  size_t offset, length;
} clua_PushOp;

/// Values for Lua, described in plain C memory (no Lua call) and pushed by
/// clua_push_plan, whose allocations are then Lua's own, raised from C.
typedef struct clua_PushPlan {
  clua_PushOp *_Nullable ops;
  size_t count, capacity;
  char *_Nullable bytes;
  size_t byteCount, byteCapacity;
  /// The stack the plan uses as it goes, and the most it uses.
  int height, maximumHeight;
  /// Memory for the plan itself ran out: pushing it raises.
  int failed;
  /// The plan is an error message the memory cap raises (see memoryErrorValue).
  int isMemoryError;
} clua_PushPlan;

/// Limits and counters of one lua_State (its memory, its limits, and what links it to
/// the host), reached from the allocator and the hook through the allocator's user-data
/// pointer. Opaque here: the host reads what it needs through the functions below and
/// writes none of it.
typedef struct clua_Budget clua_Budget;

// MARK: States and their limits (budget.c)

/// A new state whose allocator holds `memoryLimit` and whose calls end after
/// `timeLimit` nanoseconds (0: none); NULL if it could not be made.
lua_State *_Nullable clua_newstate(size_t memoryLimit, long long timeLimit);
/// Closes a state made by clua_newstate and frees its budget.
void clua_close(lua_State *L);
clua_Budget *clua_budget(lua_State *L);
/// A full garbage collection, between calls (lua_gc is variadic, which Swift cannot
/// call); tests use it to see what the heap holds.
void clua_collect_garbage(lua_State *L);
/// The monotonic clock in nanoseconds.
long long clua_now(void);
/// The host's own charge for work done in Swift: reports a spent budget (returns 1,
/// every next instruction of the thread failing) instead of raising.
int clua_charge_or_report(lua_State *L, long long instructions);
/// Bytes the host holds for rules outside the Lua heap, counted against the cap.
void clua_set_external_bytes(lua_State *L, size_t bytes);
/// Has the calls of `L` count lazily (see clua_Budget.lazyCounting), or from their first
/// instruction again.
void clua_count_lazily(lua_State *L, int lazily);
/// Whether the calls of `L` count lazily.
int clua_counts_lazily(lua_State *L);
/// Bytes the Lua heap holds, and bytes the host holds for rules (clua_set_external_bytes).
size_t clua_memory_in_use(lua_State *L);
size_t clua_external_bytes(lua_State *L);
/// Instructions the last call (or the running one) counted.
long long clua_instructions_used(lua_State *L);
/// The running call's deadline in clua_now's clock, or 0 when no call runs or it has none.
long long clua_active_deadline(lua_State *L);
/// The running (or last) call spent its instruction budget.
int clua_instructions_exhausted(lua_State *L);
/// The last clua_loadtext stopped at the time limit.
int clua_compile_timed_out(lua_State *L);
/// Which limit ended the last outermost call, as the message handler saw it.
typedef struct clua_CallEnd {
  int instructionsExhausted, timeExceeded, endedByMemoryLimit;
} clua_CallEnd;
clua_CallEnd clua_call_end(lua_State *L);
/// The host's two functions: `dispatcher` runs a Swift function exposed to Lua (returns
/// its number of results, or -1 with an error message planned); `release` releases a
/// Swift function's box once the collector freed the closure that held it.
void clua_set_host_functions(lua_State *L, int (*dispatcher)(lua_State *L, void *_Nullable function),
                             void (*release)(void *function));
/// Called for every executed line while set (coverage); must not raise. NULL to stop.
void clua_set_line_observer(lua_State *L,
                            void (*_Nullable observer)(void *_Nullable context, const char *source, int line),
                            void *_Nullable context);
/// Watches the embedder's data version at `version` (kept valid by the embedder): once it
/// moves, what trusted Lua read is forgotten before any Lua runs (clua_forget_stale_readings).
void clua_watch_version(lua_State *L, const long *version);
/// The registry slots of the two lists of readings (see clua_forget_stale_readings).
void clua_set_readings_lists(lua_State *L, int readings, int fieldReadings);

// MARK: Host values (pushes.c)

/// The state's push plan, emptied.
clua_PushPlan *clua_plan(lua_State *L);
void clua_plan_nil(clua_PushPlan *plan);
void clua_plan_boolean(clua_PushPlan *plan, int value);
void clua_plan_integer(clua_PushPlan *plan, long long value);
void clua_plan_number(clua_PushPlan *plan, double value);
/// Copies `length` bytes into the plan.
void clua_plan_string(clua_PushPlan *plan, const char *_Nullable bytes, size_t length);
/// The value a registry slot holds.
void clua_plan_reference(clua_PushPlan *plan, int slot);
void clua_plan_table(clua_PushPlan *plan, int sequenceCount, int fieldCount);
void clua_plan_set_index(clua_PushPlan *plan, long long index);
void clua_plan_set_field(clua_PushPlan *plan);
/// The planned value is an error message the memory cap raises.
void clua_plan_memory_error(clua_PushPlan *plan);
/// Pushes a plan's values and empties it. Raises on failure: only for a C function
/// running in Lua (the trampoline), never from Swift.
void clua_push_plan(lua_State *L, clua_PushPlan *plan);
/// Pushes a plan's values in a protected call: LUA_OK with the values on the stack, or
/// an error status with its message.
int clua_push_plan_protected(lua_State *L, clua_PushPlan *plan);
/// luaL_ref of the value on top (popped), in a protected call: LUA_NOREF when the
/// registry could not grow.
int clua_ref_protected(lua_State *L);
void clua_free_plan(clua_PushPlan *plan);

// MARK: Calls (calls.c)

/// Stack slots that stay at the bottom of the main thread's stack for its whole life:
/// the message handler and the keys of a point, reached with a cheap `lua_pushvalue`.
enum { CLUA_SLOT_TRACEBACK = 1, CLUA_SLOT_KEY_X = 2, CLUA_SLOT_KEY_Y = 3, CLUA_RESIDENT_SLOTS = 3 };

/// Interns up to CLUA_MAX_SYMBOLS words a call result is classified by (code = index),
/// and the keys a table result holds a symbol and a number under, in a protected call.
/// Returns 0 if there are too many words, -1 if memory ran out (nothing interned).
int clua_intern_symbols(lua_State *L, const char *_Nonnull const *_Nonnull words, int count, const char *symbolKey,
                        const char *numberKey, const char *flagKey);

/// Calls the function below `nargs` arguments on top of `L` in the one call bracket
/// every call into Lua goes through (see clua_call_with_points too): what trusted Lua
/// read of an older version or of another call is forgotten; the outermost call arms the
/// budget with `instructionLimit` and disarms it after; the call runs protected, with the
/// traceback message handler. Sets `*outermost`. Returns Lua's status, or -1 with nothing
/// run and the stack as it was when `L` has no room for the bracket's own work.
int clua_call(lua_State *L, int nargs, int nresults, long long instructionLimit, int *outermost);
/// Names the table clua_call and clua_call_with_points empty as each call begins: what
/// trusted Lua keeps of the running call (0 for none).
void clua_set_call_readings(lua_State *L, int table);
/// Says the running call is filling the call readings: the next call empties them.
void clua_call_readings_filled(lua_State *L);
/// Empties the call readings now, between calls or when a call nested in another
/// returned and the outer one goes on. Allocates nothing; does nothing without four free
/// stack slots (returns 0).
int clua_forget_call_readings(lua_State *L);
/// Makes a Lua function that runs `function` (through the dispatcher) and keeps it in
/// the registry, in a protected call: its slot, or LUA_NOREF if memory ran out (the
/// caller then still owns `function`). Once made, the function owns `function`: it is
/// given to `swiftRelease` when the collector frees the function.
int clua_swift_function_ref(lua_State *L, void *function);

/// What a call's first result is, read with raw accesses only: a rule's table may
/// carry metamethods, and nothing may run them outside a protected call.
typedef enum clua_ResultKind {
  CLUA_RESULT_NONE = 0,
  CLUA_RESULT_TRUE,
  CLUA_RESULT_FALSE,
  /// An interned symbol alone, or a table whose symbol key holds one.
  CLUA_RESULT_SYMBOL,
  CLUA_RESULT_OTHER,
} clua_ResultKind;

typedef enum clua_NumberKind {
  CLUA_NUMBER_NONE = 0,
  CLUA_NUMBER_INTEGER,
  /// A float, possibly NaN or infinite: the host decides whether it is whole and finite.
  CLUA_NUMBER_FLOAT,
  CLUA_NUMBER_NOT_A_NUMBER,
} clua_NumberKind;

typedef struct clua_CallResult {
  int status;
  clua_ResultKind kind;
  /// The symbol's code, with CLUA_RESULT_SYMBOL.
  int symbol;
  /// A table result's number key.
  clua_NumberKind numberKind;
  long long integerNumber;
  double floatNumber;
  /// A table result's flag key, as a boolean (0 when absent, false or nil).
  int flag;
  int leftOnStack;
  int outermost;
} clua_CallResult;

/// One call with two arguments, writing two points first: the function, its arguments
/// and the two point tables to update (registry references), and the points.
typedef struct clua_PointCall {
  int function, first, second, point, globalPoint;
  double x, y, globalX, globalY;
} clua_PointCall;

/// Writes the two points in place (`x` and `y`), then calls `function(first, second)` in
/// the call bracket clua_call describes, with the resident message handler. When the result is nil, a boolean or a symbol, the stack
/// is left as it was; otherwise the result (or error message) stays on top for the
/// caller to read and pop, and `out->leftOnStack` is 1. A nested call with no stack
/// left pushes nothing: an error status with `leftOnStack` 0. Allocates nothing of its own.
void clua_call_with_points(lua_State *L, clua_Budget *budget, const clua_PointCall *call, long long instructionLimit,
                           clua_CallResult *out);

/// Removes every field of `registry[table]` and gives it `registry[metatable]` as its
/// metatable. Allocates nothing and raises nothing: host upkeep that cannot fail. Needs
/// four free stack slots.
void clua_empty_table(lua_State *L, int table, int metatable);
/// Once the watched version moved: empties every table listed in the readings list; for
/// each entry `{table, key...}` of the field readings list, removes those keys of
/// `table`; then empties both lists. Allocates nothing and raises nothing: host upkeep
/// that cannot fail, run on `L` (the running thread) before any Lua runs.
/// Returns 0, having forgotten nothing, only when `L` has no stack left for it: the
/// caller must then not run Lua.
int clua_forget_stale_readings(lua_State *L, clua_Budget *budget);
/// The registry slots a new state's preparation made.
typedef struct clua_PreparedState {
  /// The two lists of readings (see clua_forget_stale_readings).
  int readings, fieldReadings;
  /// The sandbox's bounded functions: patterns, resume and `charge`.
  int boundedLibrary;
} clua_PreparedState;

/// Opens the standard libraries, makes the tables the host keeps, and then keeps the
/// resident slots, in a protected call: LUA_OK, or an error status (memory ran out)
/// with the state unusable.
int clua_prepare_state(lua_State *L, clua_PreparedState *out);
/// Once the sandbox has what it needs of them: removes `string.dump` and locks the
/// metatable all strings share, so no rule can reach or change it. In a protected call.
int clua_seal_libraries(lua_State *L);
/// `registry[table][key]`, raw, kept in the registry: its slot, or LUA_NOREF. In a
/// protected call.
int clua_field_ref(lua_State *L, int table, const char *key);

// MARK: Chunks (chunks.c)

/// Compiles text only, a piece at a time, and stops once the state's time limit has
/// passed since it began (an error status, with compileTimedOut set).
int clua_loadtext(lua_State *L, const char *text, size_t length, const char *chunkName);
/// Loads bytecode that clua_dump made in this process from a chunk clua_loadtext
/// compiled. Lua does not verify bytecode, so nothing else may ever reach this.
int clua_load_own_bytecode(lua_State *L, const char *bytes, size_t length, const char *chunkName);
/// The bytecode of the function on top of the stack, in a buffer the caller frees
/// with `free`; NULL if it could not be made.
char *_Nullable clua_dump(lua_State *L, size_t *length);

#pragma clang assume_nonnull end

#endif
