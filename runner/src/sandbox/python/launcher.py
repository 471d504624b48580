# koth's Python launcher (see runner/src/sandbox/python/snapshot.rs).
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
import importlib.machinery, itertools, json, marshal, math, operator, random, re, string
import struct, time, types

# koth writes each invocation's arguments here before it calls _koth_main: a little-endian
# length and the arguments joined by NUL bytes, then a little-endian length and the script's
# code as compiled when koth loaded it (marshal), or nothing.
_KOTH_ARGV = bytearray(b"KOTH-ARGV\0" + bytes(4 * 1024 * 1024 - 10))


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


def _koth_compile(script):
    # At load: the script's code for every later invocation, or its syntax error.
    with open(script, "rb") as f:
        source = f.read()
    try:
        code = marshal.dumps(compile(source, script, "exec"))
    except Exception as e:
        sys.excepthook(type(e), e.with_traceback(None), None)
        sys.stderr.flush()
        os._exit(1)
    while code:
        code = code[os.write(1, code) :]
    os._exit(0)


def _koth_main():
    n = int.from_bytes(_KOTH_ARGV[:4], "little")
    argv = [os.fsdecode(a) for a in bytes(_KOTH_ARGV[4 : 4 + n]).split(b"\0")]
    m = int.from_bytes(_KOTH_ARGV[4 + n : 8 + n], "little")
    compiled = bytes(_KOTH_ARGV[8 + n : 8 + n + m])
    if argv[0] == "--koth-compile":
        _koth_compile(argv[1])
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
        if compiled:
            code = marshal.loads(compiled)
        else:
            try:
                with open(script, "rb") as f:
                    source = f.read()
            except OSError as e:
                print(f"python: can't open file {script!r}: [Errno {e.errno}] {e.strerror}", file=sys.stderr)
                os._exit(2)
            code = compile(source, script, "exec")
        exec(code, main.__dict__)
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
