# koth's Python launcher (see runner/src/sandbox/python.rs).
#
# koth runs this once per machine, as `python -S -B /koth_launcher.py`, and snapshots the
# interpreter when it calls os._exit below. Every invocation of a Python bot then starts from a
# fresh copy of that snapshot, in _koth_main, which runs the bot's script as
# `python -S -B SCRIPT ARGS...` would.
import os
import sys

# Modules bots commonly import (and what they import), loaded here once so that no invocation
# pays for them. The bot's own `import` statements still run; they find these in sys.modules.
import ast, atexit, bisect, builtins, collections, copy, functools, heapq, importlib
import importlib.machinery, itertools, json, math, operator, random, re, string, struct
import time, types

# koth writes each invocation's arguments here (a little-endian length, then the arguments
# joined by NUL bytes) before it calls _koth_main.
_KOTH_ARGV = bytearray(b"KOTH-ARGV\0" + bytes(256 * 1024 - 10))


def _koth_exit_code(e):
    # As CPython treats an uncaught SystemExit.
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int):
        # What proc_exit's 32 bits keep, as a C int for os._exit.
        return (code + 2**31) % 2**32 - 2**31
    try:
        print(code, file=sys.stderr)
    except Exception:
        pass
    return 1


def _koth_main():
    n = int.from_bytes(_KOTH_ARGV[:4], "little")
    argv = [os.fsdecode(a) for a in bytes(_KOTH_ARGV[4 : 4 + n]).split(b"\0")]
    script = argv[0]
    sys.argv = argv
    sys.orig_argv = sys.orig_argv[:1] + ["-S", "-B"] + argv
    sys.path[0] = os.path.dirname(script)
    # The script's folder was listed at snapshot time. (Not importlib.invalidate_caches(): it
    # imports importlib.metadata, and re-reads the standard library's archive.)
    finder = sys.path_importer_cache.get(sys.path[0])
    if finder is not None:
        finder.invalidate_caches()
    # The snapshot's generator was seeded once; this one is the invocation's own.
    random.seed()
    # The script's frame sits two below where `python SCRIPT` would put it.
    sys.setrecursionlimit(sys.getrecursionlimit() + 2)
    main = types.ModuleType("__main__")
    main.__file__ = script
    main.__cached__ = None
    main.__builtins__ = builtins
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", script)
    sys.modules["__main__"] = main
    code = 0
    try:
        try:
            with open(script, "rb") as f:
                source = f.read()
        except OSError as e:
            print(f"python: can't open file {script!r}: [Errno {e.errno}] {e.strerror}", file=sys.stderr)
            os._exit(2)
        exec(compile(source, script, "exec"), main.__dict__)
    except SystemExit as e:
        code = _koth_exit_code(e)
    except BaseException as e:
        # The traceback starts at the script, as it would under `python SCRIPT`.
        tb = e.__traceback__
        e = e.with_traceback(tb.tb_next if tb is not None else None)
        sys.excepthook(type(e), e, e.__traceback__)
        code = 1
    try:
        atexit._run_exitfuncs()
    except BaseException:
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            if code == 0:
                code = 120
    os._exit(code)


os.write(
    1,
    b"KOTH-SNAPSHOT %d %d %d %d\n"
    % (id(_koth_main), id(type(_koth_main)), id(_KOTH_ARGV), len(_KOTH_ARGV)),
)
os._exit(0)
