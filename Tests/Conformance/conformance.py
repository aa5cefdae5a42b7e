#!/usr/bin/env python3
"""Lua's own tests as the authority on what the sandbox's Lua does.

Runs each of Lua 5.4.4's test files (the `testes/` folder of lua/lua at tag v5.4.4,
fetched by whoever runs this and never committed) twice, after the same prelude
(prelude.lua: the sandbox's globals, and an assert that records failures and goes on):
with `lua5.4`, and inside `droprules test` with default limits. An assertion that holds
in lua5.4 must hold in droprules; a suite that lua5.4 finishes must finish.

    python3 Tests/Conformance/conformance.py TESTES_DIR [SUITE ...] [--hard] [--droprules PATH]

Prints one line per suite (assertions that failed only in droprules, whether it
finished, and the time of each run) and exits 1 if any suite differs.
"""
import argparse, json, os, re, subprocess, sys, tempfile, time

SUITES = ["pm", "strings", "sort", "utf8", "tpack", "math", "coroutine", "nextvar",
          "literals", "closure", "events", "goto", "constructs", "vararg", "locals"]
HERE = os.path.dirname(os.path.abspath(__file__))

# Where a file cannot go on without what the sandbox forbids (debug's setmetatable for
# numbers and nil, setupvalue), the block is left out, the same in both runs: each entry
# is text of the v5.4.4 file and what replaces it. Nothing else is changed.
ADAPTATIONS = {
    "events": [(
        "mt = {__index = function (a,b) return a+b end,",
        "if false then -- debug.setmetatable on basic types: no debug in the sandbox\n"
        "mt = {__index = function (a,b) return a+b end,",
    ), (
        "debug.setmetatable(nil, {})\n",
        "debug.setmetatable(nil, {})\nend\n",
    )],
    # tracegc traces collections with a __gc metamethod, which rules cannot set.
    "locals": [(
        'local tracegc = require"tracegc"\n',
        "local tracegc = { start = function() end, stop = function() end } -- no __gc in the sandbox\n",
    )],
    "coroutine": [(
        "debug.setupvalue(f, 1, g)\nassert(run(f, {\"idx\", \"nidx\", \"idx\"}) == 11)\nassert(g.k.AAA == 11)\n",
        "-- debug.setupvalue: no debug in the sandbox\n",
    )],
}


def adapted(name, source):
    for old, new in ADAPTATIONS.get(name, []):
        if old not in source:
            sys.exit(f"{name}.lua is not v5.4.4's: cannot find {old!r}")
        source = source.replace(old, new, 1)
    return source


def long_string(text):
    """`text` as a Lua long string whose brackets do not occur in it."""
    level = 0
    while "]" + "=" * level + "]" in text:
        level += 1
    eq = "=" * level
    # A long string drops a newline right after its opening bracket: keep line 1 first.
    return "[" + eq + "[\n" + text + "]" + eq + "]"


def driver(name, source, prelude):
    """Lua code that runs the prelude, then the suite as chunk `@name.lua`, and says DONE."""
    return (
        "local failures = assert(load(" + long_string(prelude) + ", '=prelude'))()\n"
        "local chunk = assert(load(" + long_string(source) + ", '@" + name + ".lua'))\n"
        "chunk()\n"
        "print('DONE " + name + " ' .. failures())\n"
    )


def outcome(lines):
    failed = {line[5:] for line in lines if line.startswith("FAIL ")}
    done = any(line.startswith("DONE ") for line in lines)
    return failed, done


def run_lua(name, code):
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False, encoding="latin-1") as file:
        file.write(code)
    start = time.monotonic()
    result = subprocess.run(["lua5.4", file.name], capture_output=True, text=True, timeout=600)
    elapsed = time.monotonic() - start
    os.unlink(file.name)
    lines = result.stdout.splitlines()
    error = result.stderr.strip().splitlines()[:1]
    return outcome(lines) + (elapsed, error[0] if error else "")


def run_droprules(droprules, name, code):
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, name + "_test.lua")
    with open(path, "w", encoding="latin-1") as file:
        file.write("test(" + json.dumps(name) + ", function()\n" + code + "end)\n")
    start = time.monotonic()
    result = subprocess.run([droprules, "test", "--format", "json", path], capture_output=True, text=True,
                            timeout=600)
    elapsed = time.monotonic() - start
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        return set(), False, elapsed, (result.stderr or result.stdout).strip()[:300]
    lines, error = [], ""
    for test in report.get("tests", []):
        lines += test.get("printed", [])
        if test.get("failures"):
            error = str(test["failures"])[:300]
    return outcome(lines) + (elapsed, error)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("testes")
    parser.add_argument("suites", nargs="*", default=SUITES)
    parser.add_argument("--droprules", default=os.path.join(HERE, "..", "..", ".build", "debug", "droprules"))
    parser.add_argument("--hard", action="store_true", help="run the long tests too (_soft = false)")
    arguments = parser.parse_args()
    prelude = open(os.path.join(HERE, "prelude.lua")).read()
    if arguments.hard:
        prelude = prelude.replace("_soft = true", "_soft = false", 1)
    differ = False
    for name in arguments.suites:
        source = adapted(name, open(os.path.join(arguments.testes, name + ".lua"), encoding="latin-1").read())
        code = driver(name, source, prelude)
        lua_failed, lua_done, lua_time, lua_error = run_lua(name, code)
        ours_failed, ours_done, ours_time, ours_error = run_droprules(arguments.droprules, name, code)
        only_ours = sorted(ours_failed - lua_failed, key=lambda f: int(re.sub(r"\D", "", f.split(":")[-1]) or 0))
        same = not only_ours and (ours_done or not lua_done)
        differ |= not same
        print(f"{'ok  ' if same else 'DIFF'} {name:11} lua5.4 {'done' if lua_done else 'ABORTED'} "
              f"{len(lua_failed)} failed {lua_time:6.2f}s | droprules {'done' if ours_done else 'ABORTED'} "
              f"{len(ours_failed)} failed {ours_time:6.2f}s")
        for failure in only_ours:
            print(f"     fails only in droprules: {failure}")
        if lua_done and not ours_done:
            print(f"     droprules stopped: {ours_error}")
        if not lua_done:
            print(f"     lua5.4 stopped: {lua_error}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
