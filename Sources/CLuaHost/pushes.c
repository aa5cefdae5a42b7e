// Values the host gives Lua: Swift describes them in a push plan (plain C memory, no Lua
// call), and C pushes the plan. Every allocation a push makes is then Lua's, raised from
// a C frame (the trampoline's, or a protected call's), never a jump over Swift.
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/// Grows `*items` to hold `needed` elements of `size` bytes; 0 if memory ran out.
static int clua_plan_reserve(void **items, size_t *capacity, size_t needed, size_t size) {
  if (needed <= *capacity) return 1;
  size_t grown = *capacity < 16 ? 16 : *capacity * 2;
  while (grown < needed) grown *= 2;
  void *resized = realloc(*items, grown * size);
  if (resized == NULL) return 0;
  *items = resized;
  *capacity = grown;
  return 1;
}

clua_PushPlan *clua_plan(lua_State *L) {
  clua_PushPlan *plan = &clua_budget(L)->host.plan;
  plan->count = 0;
  plan->byteCount = 0;
  plan->height = 0;
  plan->maximumHeight = 0;
  plan->failed = 0;
  plan->isMemoryError = 0;
  return plan;
}

/// Follows the stack the plan will use: `change` slots more (or fewer) after an op.
static void clua_plan_grow(clua_PushPlan *plan, int change) {
  plan->height += change;
  if (plan->height > plan->maximumHeight) plan->maximumHeight = plan->height;
}

static clua_PushOp *clua_plan_add(clua_PushPlan *plan, clua_PushOpKind kind) {
  if (plan->failed) return NULL;
  if (!clua_plan_reserve((void **)&plan->ops, &plan->capacity, plan->count + 1, sizeof(clua_PushOp))) {
    plan->failed = 1;
    return NULL;
  }
  clua_PushOp *op = &plan->ops[plan->count++];
  memset(op, 0, sizeof *op);
  op->kind = kind;
  switch (kind) {
  case CLUA_PUSH_SET_INDEX: clua_plan_grow(plan, -1); break;
  case CLUA_PUSH_SET_FIELD: clua_plan_grow(plan, -2); break;
  default: clua_plan_grow(plan, 1); break;
  }
  return op;
}

void clua_plan_nil(clua_PushPlan *plan) { clua_plan_add(plan, CLUA_PUSH_NIL); }

void clua_plan_boolean(clua_PushPlan *plan, int value) {
  clua_PushOp *op = clua_plan_add(plan, CLUA_PUSH_BOOLEAN);
  if (op) op->integer = value != 0;
}

void clua_plan_integer(clua_PushPlan *plan, long long value) {
  clua_PushOp *op = clua_plan_add(plan, CLUA_PUSH_INTEGER);
  if (op) op->integer = value;
}

void clua_plan_number(clua_PushPlan *plan, double value) {
  clua_PushOp *op = clua_plan_add(plan, CLUA_PUSH_NUMBER);
  if (op) op->number = value;
}

void clua_plan_string(clua_PushPlan *plan, const char *_Nullable bytes, size_t length) {
  clua_PushOp *op = clua_plan_add(plan, CLUA_PUSH_STRING);
  if (op == NULL) return;
  if (!clua_plan_reserve((void **)&plan->bytes, &plan->byteCapacity, plan->byteCount + length, 1)) {
    plan->failed = 1;
    return;
  }
  if (length > 0 && bytes != NULL) memcpy(plan->bytes + plan->byteCount, bytes, length);
  op->offset = plan->byteCount;
  op->length = length;
  plan->byteCount += length;
}

void clua_plan_reference(clua_PushPlan *plan, int slot) {
  clua_PushOp *op = clua_plan_add(plan, CLUA_PUSH_REFERENCE);
  if (op) op->integer = slot;
}

void clua_plan_table(clua_PushPlan *plan, int sequenceCount, int fieldCount) {
  clua_PushOp *op = clua_plan_add(plan, CLUA_PUSH_TABLE);
  if (op == NULL) return;
  op->integer = sequenceCount;
  op->fieldCount = fieldCount;
}

void clua_plan_set_index(clua_PushPlan *plan, long long index) {
  clua_PushOp *op = clua_plan_add(plan, CLUA_PUSH_SET_INDEX);
  if (op) op->integer = index;
}

void clua_plan_set_field(clua_PushPlan *plan) { clua_plan_add(plan, CLUA_PUSH_SET_FIELD); }

void clua_plan_memory_error(clua_PushPlan *plan) { plan->isMemoryError = 1; }

void clua_push_plan(lua_State *L, clua_PushPlan *plan) {
  if (plan->failed) clua_raise(L, "not enough memory to pass the host's values to Lua");
  luaL_checkstack(L, plan->maximumHeight, "too many values from the host");
  for (size_t index = 0; index < plan->count; index++) {
    const clua_PushOp *op = &plan->ops[index];
    switch (op->kind) {
    case CLUA_PUSH_NIL: lua_pushnil(L); break;
    case CLUA_PUSH_BOOLEAN: lua_pushboolean(L, (int)op->integer); break;
    case CLUA_PUSH_INTEGER: lua_pushinteger(L, (lua_Integer)op->integer); break;
    case CLUA_PUSH_NUMBER: lua_pushnumber(L, (lua_Number)op->number); break;
    case CLUA_PUSH_STRING: lua_pushlstring(L, plan->bytes ? plan->bytes + op->offset : "", op->length); break;
    case CLUA_PUSH_REFERENCE: lua_rawgeti(L, LUA_REGISTRYINDEX, (lua_Integer)op->integer); break;
    case CLUA_PUSH_TABLE: lua_createtable(L, (int)op->integer, op->fieldCount); break;
    case CLUA_PUSH_SET_INDEX: lua_rawseti(L, -2, (lua_Integer)op->integer); break;
    case CLUA_PUSH_SET_FIELD: lua_rawset(L, -3); break;
    }
  }
  plan->count = 0;
  plan->byteCount = 0;
}

static int clua_push_plan_worker(lua_State *L) {
  clua_PushPlan *plan = (clua_PushPlan *)lua_touserdata(L, 1);
  lua_settop(L, 0);
  clua_push_plan(L, plan);
  return lua_gettop(L);
}

int clua_push_plan_protected(lua_State *L, clua_PushPlan *plan) {
  // Neither push allocates: a light C function and a light userdata.
  lua_pushcfunction(L, clua_push_plan_worker);
  lua_pushlightuserdata(L, plan);
  return lua_pcall(L, 1, LUA_MULTRET, 0);
}

static int clua_ref_worker(lua_State *L) {
  lua_pushinteger(L, luaL_ref(L, LUA_REGISTRYINDEX));
  return 1;
}

int clua_protected_ref(lua_State *L, lua_CFunction worker, int arguments) {
  lua_pushcfunction(L, worker);
  lua_insert(L, -(arguments + 1));
  if (lua_pcall(L, arguments, 1, 0) != LUA_OK) {
    lua_pop(L, 1);
    return LUA_NOREF;
  }
  int ref = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  return ref;
}

int clua_ref_protected(lua_State *L) { return clua_protected_ref(L, clua_ref_worker, 1); }

void clua_free_plan(clua_PushPlan *plan) {
  free(plan->ops);
  free(plan->bytes);
  memset(plan, 0, sizeof *plan);
}
