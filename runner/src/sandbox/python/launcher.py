# koth's Python launcher (see runner/src/sandbox/python/snapshot.rs).
#
# koth runs this once per machine, as `python -S -B /koth_launcher.py`, and snapshots the
# interpreter when it calls os._exit below. Every invocation of a Python bot then starts from a
# fresh copy of that snapshot, in _koth_main, which runs the bot's script as
# `python -S -B SCRIPT ARGS...` would, and always ends in _exit.
import os
import sys

# What a plain `python -S` has imported before it runs a script.
_KOTH_COLD = frozenset(sys.modules)

# Modules bots commonly import (and what they import), loaded here once so that no invocation
# pays for them. The bot's own `import` statements still run; they find these in sys.modules.
import ast, atexit, bisect, builtins, collections, copy, functools, heapq, importlib
import importlib.machinery, itertools, json, marshal, math, operator, random, re, string
import struct, time, types

# Bound now: a script that replaces os._exit must not keep the invocation from ending.
_exit = os._exit


def _koth_unraisable_args_type():
    # The type sys.unraisablehook takes, caught from one real report (it has no public name).
    caught = []
    hook, sys.unraisablehook = sys.unraisablehook, lambda args: caught.append(type(args))

    class Raises:
        def __del__(self):
            raise RuntimeError

    Raises()
    sys.unraisablehook = hook
    return caught[0]


_UnraisableHookArgs = _koth_unraisable_args_type()

# koth writes each invocation's arguments here before it calls _koth_main: a little-endian
# length and the whole argv joined by NUL bytes, then a little-endian length and the script's
# code as compiled when koth loaded it (marshal), or nothing.
_KOTH_ARGV = bytearray(b"KOTH-ARGV\0" + bytes(1024 * 1024 - 10))


def _koth_exit_status(e):
    # As CPython's _Py_HandleSystemExit treats an uncaught SystemExit.
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int):
        if -(2**31) <= code < 2**31:
            return code
        print("OverflowError: Python int too large to convert to C long", file=sys.stderr)
        return -1
    print(code, file=sys.stderr)
    return 1


def _koth_compile(script):
    # At load: the script's code for every later invocation, or why it cannot be compiled.
    with open(script, "rb") as f:
        source = f.read()
    try:
        code = marshal.dumps(compile(source, script, "exec"))
    except Exception as e:
        sys.excepthook(type(e), e.with_traceback(None), None)
        sys.stderr.flush()
        _exit(1)
    while code:
        code = code[os.write(1, code) :]
    _exit(0)


def _koth_unshadow(folder):
    # A `name.py` or `name/` beside the script shadows a module of that name which a plain
    # `python -S` has not imported yet: forget the one the launcher imported.
    try:
        names = os.listdir(folder)
    except OSError:
        return
    hit = _KOTH_PRELOADED.intersection(n[:-3] if n.endswith(".py") else n for n in names)
    if hit:
        for name in list(sys.modules):
            if name.partition(".")[0] in hit and name not in _KOTH_COLD:
                del sys.modules[name]


def _koth_run(argv, compiled):
    # Run the script; return its exit status.
    script = argv[1]
    sys.argv = argv[1:]
    sys.orig_argv = [argv[0], "-S", "-B"] + argv[1:]
    sys.path[0] = os.path.dirname(script)
    # The script's folder was listed at snapshot time. (Not importlib.invalidate_caches(): it
    # imports importlib.metadata, and re-reads the standard library's archive.)
    finder = sys.path_importer_cache.get(sys.path[0])
    if finder is not None:
        finder.invalidate_caches()
    _koth_unshadow(sys.path[0])
    # The snapshot's generator was seeded once; this one is the invocation's own.
    random.seed()
    # The script's frame sits two below where `python SCRIPT` would put it: the same depth
    # is left to it.
    sys.setrecursionlimit(sys.getrecursionlimit() + 2)
    main = types.ModuleType("__main__")
    main.__file__ = script
    main.__cached__ = None
    main.__builtins__ = builtins
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", script)
    sys.modules["__main__"] = main
    status = 0
    try:
        if compiled:
            code = marshal.loads(compiled)
        else:
            try:
                with open(script, "rb") as f:
                    source = f.read()
            except OSError as e:
                print(f"python: can't open file {script!r}: [Errno {e.errno}] {e.strerror}", file=sys.stderr)
                return 2
            code = compile(source, script, "exec")
        exec(code, main.__dict__)
    except SystemExit as e:
        status = _koth_exit_status(e)
    except BaseException as e:
        # The traceback starts at the script, as it would under `python SCRIPT`.
        tb = e.__traceback__
        e = e.with_traceback(tb.tb_next if tb is not None else None)
        sys.excepthook(type(e), e, e.__traceback__)
        status = 130 if isinstance(e, KeyboardInterrupt) else 1
    # What interpreter finalisation does that a bot can see: exit handlers, the script's
    # globals let go (their __del__), output flushed (on the original streams too).
    try:
        atexit._run_exitfuncs()
    except BaseException:
        pass
    try:
        main.__dict__.clear()
    except BaseException:
        pass
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except BaseException as e:
            # As CPython's flush_std_files: reported as unraisable, and status 120.
            tb = e.__traceback__
            try:
                sys.unraisablehook(
                    _UnraisableHookArgs(
                        (type(e), e, tb.tb_next if tb is not None else None, None, stream)
                    )
                )
            except BaseException:
                pass
            if status == 0:
                status = 120
    return status


def _koth_main():
    status = 1
    try:
        n = int.from_bytes(_KOTH_ARGV[:4], "little")
        argv = [os.fsdecode(a) for a in bytes(_KOTH_ARGV[4 : 4 + n]).split(b"\0")]
        m = int.from_bytes(_KOTH_ARGV[4 + n : 8 + n], "little")
        compiled = bytes(_KOTH_ARGV[8 + n : 8 + n + m])
        if argv[1] == "--koth-compile":
            _koth_compile(argv[2])
        status = _koth_run(argv, compiled)
    finally:
        _exit(status)


# The top-level names of what the launcher imported beyond a plain `python -S`.
_KOTH_PRELOADED = frozenset(n.partition(".")[0] for n in sys.modules if n not in _KOTH_COLD)

os.write(
    1,
    b"KOTH-SNAPSHOT %d %d %d %d\n"
    % (id(_koth_main), id(type(_koth_main)), id(_KOTH_ARGV), len(_KOTH_ARGV)),
)
_exit(0)
