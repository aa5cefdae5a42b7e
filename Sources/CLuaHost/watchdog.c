// The deadline's watchdog. The count hook reads the clock every thousand instructions
// (it never fires more often for time, so that budgets fail alike on every run), but one
// instruction can be long: comparing two
// strings of many megabytes, or of many NUL bytes (Lua compares them piece by piece with
// strcoll), takes milliseconds to hundreds of milliseconds, and a thousand of them ran
// tens of seconds past the deadline. A thread of droprules' own watches every call
// that has a deadline; once one is passed, it signals the thread running that call,
// whose handler sets the count hook to fire at the very next instruction (lua_sethook
// is made to be called from a signal handler), where the hook raises the deadline's error.
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "internal.h"

/// The signal the watchdog sends. Its default action is to ignore it, so a stray one
/// does nothing; a handler an embedder had for it is called for every signal that is
/// not the watchdog's.
#define CLUA_WATCH_SIGNAL SIGURG
/// How often the watchdog looks, and how long after the deadline it steps in: the count
/// hook catches most calls first.
enum { CLUA_WATCH_PERIOD_MS = 20 };
/// How long a call that counts lazily runs before the watchdog sets its count hook (at
/// its first look after that).
enum { CLUA_LAZY_ARM_MS = 5 };

/// A thread that has run a call with a deadline. The watchdog reads only this, never a
/// budget, which a state's close may free.
typedef struct clua_WatchedThread {
  pthread_t thread;
  /// The running call's deadline plus the watchdog's grace; 0 while no call runs.
  _Atomic long long deadline;
  /// When the running call, counting lazily, gets its count hook; 0 for none pending.
  _Atomic long long armAt;
  struct clua_WatchedThread *next;
} clua_WatchedThread;

/// How long after a deadline the watchdog steps in.
static const long long clua_watch_grace = CLUA_WATCH_PERIOD_MS * 1000000LL;
static pthread_mutex_t clua_watch_lock = PTHREAD_MUTEX_INITIALIZER;
static clua_WatchedThread *clua_watched = NULL;
static pthread_key_t clua_watch_key;
static pthread_once_t clua_watch_once = PTHREAD_ONCE_INIT;
static _Thread_local clua_WatchedThread *clua_this_thread = NULL;
/// The budget of the call running on this thread, for the signal handler.
static _Thread_local clua_Budget *volatile clua_running_budget = NULL;
/// What handled the signal before the watchdog did.
static struct sigaction clua_previous_action;
static int clua_watch_started = 0;

static void clua_on_deadline_signal(int signal, siginfo_t *info, void *context) {
  int savedErrno = errno;
  clua_Budget *budget = clua_running_budget;
  // The signal may be late, for a call that ended: only a deadline passed now counts.
  if (budget != NULL && budget->limits.countingInstructions && budget->host.runningThread != NULL && budget->limits.timeLimit != 0 &&
      clua_now() > budget->limits.deadline) {
    budget->limits.timeExceeded = 1;
    lua_State *running = budget->host.runningThread;
    lua_sethook(running, clua_hook, lua_gethookmask(running) | LUA_MASKCOUNT, 1);
  } else if (budget != NULL && budget->limits.countingInstructions && budget->host.runningThread != NULL &&
             clua_this_thread != NULL && atomic_load_explicit(&clua_this_thread->armAt, memory_order_relaxed) != 0) {
    // A lazy call has run long enough to be counted: from here on, it is. The signal is
    // ours even when the call was armed meanwhile (the memory reserve arms it too): the
    // watchdog stops sending it, and no handler of the embedder's ever sees it.
    atomic_store_explicit(&clua_this_thread->armAt, 0, memory_order_relaxed);
    if (budget->limits.armPending) {
      budget->limits.armPending = 0;
      lua_State *running = budget->host.runningThread;
      lua_sethook(running, clua_hook, lua_gethookmask(running) | LUA_MASKCOUNT, clua_step_for(budget, running));
    }
  } else if (clua_previous_action.sa_flags & SA_SIGINFO) {
    if (clua_previous_action.sa_sigaction != NULL) clua_previous_action.sa_sigaction(signal, info, context);
  } else if (clua_previous_action.sa_handler != SIG_DFL && clua_previous_action.sa_handler != SIG_IGN) {
    clua_previous_action.sa_handler(signal);
  }
  errno = savedErrno;
}

static void *clua_watch(void *unused) {
  (void)unused;
  for (;;) {
    struct timespec pause = {0, CLUA_WATCH_PERIOD_MS * 1000000L};
    nanosleep(&pause, NULL);
    long long now = clua_now();
    pthread_mutex_lock(&clua_watch_lock);
    for (clua_WatchedThread *watched = clua_watched; watched != NULL; watched = watched->next) {
      long long deadline = atomic_load_explicit(&watched->deadline, memory_order_relaxed);
      long long armAt = atomic_load_explicit(&watched->armAt, memory_order_relaxed);
      // Every period until the call ends (or is armed): a signal that came while the hook
      // was being reset, or for a call that had just ended, is ignored, and the next lands.
      if ((deadline != 0 && now > deadline) || (armAt != 0 && now > armAt)) {
        pthread_kill(watched->thread, CLUA_WATCH_SIGNAL);
      }
    }
    pthread_mutex_unlock(&clua_watch_lock);
  }
  return NULL;
}

/// A thread that ends leaves the list, under the lock the watchdog holds while it looks.
static void clua_forget_thread(void *slot) {
  pthread_mutex_lock(&clua_watch_lock);
  for (clua_WatchedThread **link = &clua_watched; *link != NULL; link = &(*link)->next) {
    if (*link == slot) {
      *link = ((clua_WatchedThread *)slot)->next;
      break;
    }
  }
  pthread_mutex_unlock(&clua_watch_lock);
  clua_this_thread = NULL;
  free(slot);
}

static void clua_start_watch(void) {
  if (pthread_key_create(&clua_watch_key, clua_forget_thread) != 0) return;
  struct sigaction action;
  action.sa_sigaction = clua_on_deadline_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART | SA_SIGINFO | SA_ONSTACK;
  if (sigaction(CLUA_WATCH_SIGNAL, &action, &clua_previous_action) != 0) return;
  pthread_t watcher;
  if (pthread_create(&watcher, NULL, clua_watch, NULL) != 0) return;
  pthread_detach(watcher);
  clua_watch_started = 1;
}

int clua_watch_call(clua_Budget *budget) {
  if (budget->limits.timeLimit == 0) return 0;
  if (clua_this_thread == NULL) {
    pthread_once(&clua_watch_once, clua_start_watch);
    // Without the watchdog, the count hook alone keeps the deadline.
    if (!clua_watch_started) return 0;
    clua_WatchedThread *slot = (clua_WatchedThread *)calloc(1, sizeof(clua_WatchedThread));
    if (slot == NULL) return 0;
    slot->thread = pthread_self();
    if (pthread_setspecific(clua_watch_key, slot) != 0) {
      free(slot);
      return 0;
    }
    // Worker threads of a pool (libdispatch's, Swift concurrency's) start with signals
    // blocked: this one must reach the thread it is meant for.
    sigset_t watched;
    sigemptyset(&watched);
    sigaddset(&watched, CLUA_WATCH_SIGNAL);
    pthread_sigmask(SIG_UNBLOCK, &watched, NULL);
    pthread_mutex_lock(&clua_watch_lock);
    slot->next = clua_watched;
    clua_watched = slot;
    pthread_mutex_unlock(&clua_watch_lock);
    clua_this_thread = slot;
  }
  budget->limits.outerWatchedBudget = clua_running_budget;
  clua_running_budget = budget;
  atomic_store_explicit(&clua_this_thread->deadline, budget->limits.deadline + clua_watch_grace, memory_order_relaxed);
  // From the call's start as clua_arm_budget read it: no second clock read.
  long long armAt = budget->limits.armPending ? budget->limits.callStart + CLUA_LAZY_ARM_MS * 1000000LL : 0;
  atomic_store_explicit(&clua_this_thread->armAt, armAt, memory_order_relaxed);
  return 1;
}

void clua_unwatch_call(clua_Budget *budget) {
  if (clua_running_budget != budget) return;
  // The call this one ran inside, if any, is watched again.
  clua_Budget *outer = budget->limits.outerWatchedBudget;
  budget->limits.outerWatchedBudget = NULL;
  clua_running_budget = outer;
  long long deadline = outer != NULL && outer->limits.countingInstructions ? outer->limits.deadline + clua_watch_grace : 0;
  if (clua_this_thread != NULL) {
    atomic_store_explicit(&clua_this_thread->deadline, deadline, memory_order_relaxed);
    // An outer call still waiting for its hook gets it at the watchdog's next look.
    long long armAt = outer != NULL && outer->limits.countingInstructions && outer->limits.armPending ? clua_now() : 0;
    atomic_store_explicit(&clua_this_thread->armAt, armAt, memory_order_relaxed);
  }
}
