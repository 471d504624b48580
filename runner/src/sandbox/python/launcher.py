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
import ast, atexit, bisect, builtins, collections, copy, functools, gc, heapq, importlib
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


def _koth_stderr_line(text):
    # As CPython writes a message to sys.stderr, or to the C-level stderr without one.
    try:
        if sys.stderr is None:
            os.write(2, (text + "\n").encode("utf-8", "backslashreplace"))
        else:
            print(text, file=sys.stderr)
    except BaseException:
        pass


def _koth_exit_status(e):
    # As CPython's _Py_HandleSystemExit treats an uncaught SystemExit.
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int):
        code = int.__index__(code)
        if -(2**31) <= code < 2**31:
            return code
        _koth_stderr_line("OverflowError: Python int too large to convert to C long")
        return -1
    try:
        text = str(code)
    except BaseException as err:
        # CPython ends the line it could not write, then reports why.
        tb = err.__traceback__
        err = err.with_traceback(tb.tb_next if tb is not None else None)
        if err.__context__ is e:
            err.__context__ = None
        _koth_stderr_line("")
        _koth_report(err)
        return 1
    _koth_stderr_line(text)
    return 1


def _koth_report(e):
    # As CPython reports an uncaught exception: sys.excepthook, and if that fails, both.
    try:
        sys.excepthook(type(e), e, e.__traceback__)
    except BaseException as hook_error:
        tb = hook_error.__traceback__
        hook_error = hook_error.with_traceback(tb.tb_next if tb is not None else None)
        # Raised while the launcher handled `e`, not while the script did.
        if hook_error.__context__ is e:
            hook_error.__context__ = None
        try:
            _koth_stderr_line("Error in sys.excepthook:")
            sys.__excepthook__(type(hook_error), hook_error, hook_error.__traceback__)
            _koth_stderr_line("\nOriginal exception was:")
            sys.__excepthook__(type(e), e, e.__traceback__)
        except BaseException:
            pass


def _koth_flush(name, report):
    # As CPython's flush_std_files: a missing, None or closed stream is skipped; a failing
    # stdout is reported as unraisable, a failing stderr silently. True if the flush failed.
    stream = getattr(sys, name, None)
    try:
        if stream is None or getattr(stream, "closed", False):
            return False
        stream.flush()
        return False
    except BaseException as e:
        if report:
            tb = e.__traceback__
            try:
                sys.unraisablehook(
                    _UnraisableHookArgs(
                        (type(e), e, tb.tb_next if tb is not None else None, None, stream)
                    )
                )
            except BaseException:
                pass
        return True


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
    # A `name.py` (or `name.pyc`, or a package `name/`) beside the script shadows a module of
    # that name which a plain `python -S` has not imported yet. Then everything the launcher
    # imported is forgotten, so that the script's imports resolve as under `python -S`
    # (a standard module that imports the shadowed name gets the script's).
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for n in names:
        stem, dot, ext = n.rpartition(".")
        if dot and ext in ("py", "pyc"):
            shadows = stem in _KOTH_PRELOADED
        else:
            shadows = n in _KOTH_PRELOADED and os.path.isfile(
                os.path.join(folder, n, "__init__.py")
            )
        if shadows:
            for name in list(sys.modules):
                if name not in _KOTH_COLD:
                    del sys.modules[name]
            return


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
    interrupted = False
    try:
        if compiled:
            code = marshal.loads(compiled)
        else:
            try:
                with open(script, "rb") as f:
                    source = f.read()
            except OSError as e:
                _koth_stderr_line(f"python: can't open file {script!r}: [Errno {e.errno}] {e.strerror}")
                return 2
            code = compile(source, script, "exec")
        exec(code, main.__dict__)
    except SystemExit as e:
        status = _koth_exit_status(e)
    except BaseException as e:
        # The traceback starts at the script, as it would under `python SCRIPT`.
        tb = e.__traceback__
        _koth_report(e.with_traceback(tb.tb_next if tb is not None else None))
        interrupted = isinstance(e, KeyboardInterrupt)
        status = 1
    # What interpreter finalisation does that a bot can see, in CPython's order: exit
    # handlers; stdout and stderr flushed; the original streams put back; the script's module
    # let go and collected, so that __del__ methods run with its globals intact; flushed
    # again. A failed flush makes the status 120, and an interrupt 130 whatever else happened.
    try:
        atexit._run_exitfuncs()
    except BaseException:
        pass
    failed = _koth_flush("stdout", True) | _koth_flush("stderr", False)
    try:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        if sys.modules.get("__main__") is main:
            del sys.modules["__main__"]
        del main
        gc.collect()
    except BaseException:
        pass
    failed |= _koth_flush("stdout", True) | _koth_flush("stderr", False)
    if failed:
        status = 120
    if interrupted:
        status = 130
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

# Everything alive now belongs to the snapshot: the collector leaves it alone from here on,
# so that a collection in an invocation visits only what the script made.
gc.collect()
gc.freeze()

os.write(
    1,
    b"KOTH-SNAPSHOT %d %d %d %d\n"
    % (id(_koth_main), id(type(_koth_main)), id(_KOTH_ARGV), len(_KOTH_ARGV)),
)
_exit(0)
