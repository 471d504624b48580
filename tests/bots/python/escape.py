# A hostile plain-Python bot: each attempt to leave the sandbox prints one line
# `<attempt>: <what happened>`, then it loops forever on calls into the read-only layer.
# tests/tests/python.rs checks every line. Never run it natively: it would do all of it.
import os
import sys


def attempt(name, action):
    try:
        result = action()
        print(f"{name}: done {result!r}")
    except BaseException as e:  # ImportError, OSError, AttributeError, ...
        errno = getattr(e, "errno", None)
        print(f"{name}: {type(e).__name__} errno={errno}")
    sys.stdout.flush()


def write(path, mode="w"):
    with open(path, mode) as f:
        f.write("pwned")
    return path


def connect():
    import socket
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.connect(("127.0.0.1", 80))


attempt("passwd", lambda: open("/etc/passwd").read())
attempt("socket", connect)
attempt("fork", lambda: os.fork())
attempt("system", lambda: os.system("id"))
attempt("parent", lambda: write("../x"))
attempt("absolute", lambda: write("/tmp/koth-escape-x"))
attempt("script-write", lambda: write("/escape.py", "a"))
attempt("script-truncate", lambda: write("escape.py"))
attempt("script-unlink", lambda: os.unlink("escape.py"))
attempt("script-rename", lambda: os.rename("escape.py", "moved.py"))
attempt("script-utime", lambda: os.utime("escape.py", (0, 0)))
attempt("stdlib-write", lambda: write(os.__file__, "a"))
attempt("scratch", lambda: write("scratch.txt"))
attempt("listing", lambda: sorted(os.listdir("/")))
attempt("script-read", lambda: len(open("/escape.py").read()) > 0)
# Loop forever on host calls that touch the read-only layer: fuel pays for the host's work,
# so this ends `out of fuel`, never at the wall-clock backstop.
while True:
    open("escape.py").read()
    os.listdir("/")
