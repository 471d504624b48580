"""Writes docs/benchmarks.md from the raw outputs scripts/bench collected.

Run by scripts/bench, never by hand: it reads $WORK/raw/<name>.txt and .cmd (each bench's
output and command line), the archives under $WORK, and the machine's description from the
environment. Every figure on the page comes from those files.
"""
import json
import os
import re
from pathlib import Path

WORK = Path(os.environ["WORK"])
RAW = WORK / "raw"
BOTS = Path(os.environ["BOTS"])
OUT = Path(os.environ["OUT"])


def raw(name):
    p = RAW / f"{name}.txt"
    # Archives went to a temporary folder: name them by their folder alone.
    return p.read_text().replace(str(WORK) + "/", "") if p.exists() else None


def command(name):
    p = RAW / f"{name}.cmd"
    if not p.exists():
        return ""
    # Temporary paths mean nothing to a reader: name them by what they hold.
    text = p.read_text().strip()
    text = text.replace(str(WORK / "native"), "native").replace(str(WORK) + "/", "")
    return text.replace(str(BOTS) + "/", "bots/") + "\n"


def fence(text, lang="text"):
    return f"```{lang}\n{text.rstrip()}\n```\n"


def command_and_output(name):
    """A bench's command line, then what it printed (or "not run")."""
    add(fence(command(name), "sh"))
    add(fence(raw(name) or "not run"))


def median_line(text, prefix):
    """(median, p90, count, fuel) of the line that starts with prefix, as printed."""
    for line in (text or "").splitlines():
        if line.startswith(prefix):
            m = re.search(r"median ([\d.]+ \S+), p90 ([\d.]+ \S+) \((\d+) \w+(?:, (\d+) fuel each)?\)", line)
            if m:
                return m.group(1), m.group(2), m.group(3), m.group(4)
    return None


def first_line(text, prefix):
    for line in (text or "").splitlines():
        if line.startswith(prefix):
            return line
    return None


def size(path):
    n = path.stat().st_size
    if n >= 1 << 20:
        return f"{n / (1 << 20):.1f} MB"
    return f"{n / 1024:.0f} KB"


page = []
add = page.append

add("# Benchmarks\n")
add(
    "For everyone who wants numbers: every figure of the guide, measured in one run of "
    "`scripts/bench`, which wrote this page. Re-run it on your machine to compare "
    "(`scripts/bench`; `scripts/bench --quick` for a smoke run). Wall-clock figures depend on "
    "the machine and on its load, which is given; fuel figures do not: they are the same on "
    "every machine.\n"
)
if os.environ["QUICK"] == "1":
    add("**This is a quick run** (`--quick`): fewer iterations and games than the real one.\n")

add("## The machine\n")
add("| | |\n| --- | --- |")
add(f"| date | {os.environ['STARTED']} |")
add(f"| koth | {os.environ['KOTH_VERSION']}, commit {os.environ['COMMIT']} |")
add(f"| Rust | {os.environ['RUSTC']} |")
add(f"| CPU | {os.environ['CPU']}, {os.environ['CORES']} cores |")
add(f"| memory | {os.environ['MEM']} |")
add(f"| system | {os.environ['KERNEL']} |")
add(
    f"| load average (1, 5, 15 min) | {os.environ['LOAD_BEFORE']} before, "
    f"{os.environ['LOAD_AFTER']} after |"
)
add(f"| the whole run took | {int(os.environ['TOOK']) // 60} min {int(os.environ['TOOK']) % 60} s |")
add("")

# --- one decision -------------------------------------------------------------------------
add("## What a decision costs, by kind of bot\n")
add(
    "`koth bench invoke`: the opening decision of a Coup game (read the history file, append "
    "one move), each in a fresh instance with its WASI set-up and virtual directory, against "
    "spawning a native process of the trivial bot `first_legal` for the same decision (what "
    "the original arbiters paid per move). Medians and 90th percentiles; fuel is per "
    "decision.\n"
)
kinds = [
    ("first_legal", "core module, Rust, raw std (the floor)"),
    ("coup_c", "core module, C"),
    ("coup_cpp", "core module, C++ (libc++ streams)"),
    ("coup_zig", "core module, Zig"),
    ("coup_as", "core module, AssemblyScript"),
    ("coup_go", "core module, Go (its runtime starts every time)"),
    ("coup_rust_component", "component, Rust (`coup-bot` world)"),
    ("coup_js_component", "component, JavaScript (componentize-qjs)"),
    ("coup_python_component", "component, Python (componentize-py)"),
]
add("| bot | kind | module | koth, pooling | koth, on-demand | fuel | native spawn | spawn ÷ koth |")
add("| --- | --- | --- | --- | --- | --- | --- | --- |")
missing = []
for name, kind in kinds:
    text = raw(f"invoke-{name}")
    if text is None:
        missing.append(name)
        continue
    pool = median_line(text, "koth, pooling")
    demand = median_line(text, "koth, on-demand")
    nat = median_line(text, "native process")
    ratio = first_line(text, "ratio:")
    ratio = re.search(r"([\d.]+)x", ratio).group(1) + "×" if ratio else "?"
    if not (pool and demand and nat):
        add(f"| `{name}` | {kind} | | failed: see below | | | | |")
        continue
    add(
        f"| `{name}` | {kind} | {size(BOTS / (name + '.wasm'))} | {pool[0]} (p90 {pool[1]}) | "
        f"{demand[0]} | {int(pool[3]):,} | {nat[0]} | {ratio} |"
    )
add("")
# The floor under every row: bare wasmtime on the same engine, measured in each invoke run;
# first_legal's run is the one quoted.
text = raw("invoke-first_legal")
floor = median_line(text, "bare wasmtime, empty _start")
bare = median_line(text, "bare wasmtime, the minimal module")
minimal = median_line(text, "koth, minimal module")
if floor and minimal:
    ratio = float(minimal[0].split()[0]) / float(floor[0].split()[0])
    add(
        f"The floor, in the same run as `first_legal`'s: bare wasmtime on the same engine "
        f"(pooling, `InstancePre`, stub imports) instantiating and calling an empty `_start` "
        f"takes {floor[0]} (p90 {floor[1]})"
        + (f"; the minimal module below, bare on the same stubs, {bare[0]}" if bare else "")
        + f". koth's minimal module (open the history with `APPEND`, write one byte; "
        f"{int(minimal[3]):,} fuel) takes {minimal[0]} (p90 {minimal[1]}): {ratio:.2}× the floor.\n"
    )
if missing:
    add(f"Not measured (toolchain not installed): {', '.join('`' + m + '`' for m in missing)}.\n")
add("The commands, each after `scripts/bench` built the bots into `bots/` "
    "(`target/wasm-bots/wasm32-wasip1/release/`) and their native twins into `native/`:\n")
add(fence("\n".join(command(f"invoke-{n}").strip() for n, _ in kinds if raw(f"invoke-{n}")), "sh"))

# --- python -------------------------------------------------------------------------------
add("## Python scripts\n")
text = raw("python")
add(
    "`koth bench python`: the Python Coup player's opening decision, from the interpreter's "
    "snapshot (how every tournament runs it) and started cold, against a native `python3 -S` "
    "process on the same script.\n"
)
add(fence(command("python"), "sh"))
add(fence(text or "not run"))
add("A whole Bank Heist tournament of the contest's twelve bots as Python scripts:\n")
add(fence(command("python-bank-heist"), "sh"))
add(fence(raw("python-bank-heist") or "not run"))

# --- tournaments --------------------------------------------------------------------------
add("## Whole tournaments against a process per decision\n")
add(
    "`koth bench coup`, `bank-heist` and `euchre`: the same tournament through koth and with "
    "every bot as a native process per decision, driven by the same driver in the same run.\n"
)
add("| benchmark | decisions (koth) | koth | native | native ÷ koth, wall time |")
add("| --- | --- | --- | --- | --- |")
for name, what in [
    ("bench-coup", "Coup, the 13 seed bots"),
    ("bench-bank-heist", "Bank Heist, 13 bots, one tournament"),
    ("bench-euchre", "Euchre, 4 bots, every pair"),
]:
    text = raw(name)
    k = first_line(text, "koth:") or ""
    n = first_line(text, "native:") or ""
    r = first_line(text, "ratio:") or ""
    inv = re.search(r"([\d,]+) invocations", k)
    kw = re.search(r"in ([\d.]+ s) wall", k)
    nw = re.search(r"in ([\d.]+ s) wall", n)
    rw = re.search(r"([\d.]+)x in wall time", r)
    if not (inv and kw and nw and rw):
        add(f"| {what} | failed: see below | | | |")
        continue
    add(f"| {what} | {int(inv.group(1)):,} | {kw.group(1)} | {nw.group(1)} | {rw.group(1)}× |")
add("")
add("Each benchmark's own output:\n")
for name in ["bench-coup", "bench-bank-heist", "bench-euchre"]:
    lines = [l for l in (raw(name) or "").splitlines() if l.startswith(("koth:", "native:", "ratio:", "loaded"))]
    add(fence("\n".join(lines) or "not run"))
add(fence("\n".join(command(n).strip() for n in ["bench-coup", "bench-bank-heist", "bench-euchre"]), "sh"))

# --- a referee as a plugin ----------------------------------------------------------------
add("## A referee as a plugin\n")
add(
    "`koth bench play`: the same tournament played by a game's referee built into koth "
    "(`koth euchre`, `koth play coup`) and by the same referee as a WebAssembly component "
    "(`koth play euchre_referee.wasm`, `coup_referee.wasm`), alternating, the fastest of each; "
    "both must give the same games. The goal is at most 1.3× the built-in's wall time.\n"
)
for name, what in [("bench-play", "Euchre, 4 bots, every pair"),
                   ("bench-play-coup", "Coup, the 13 seed bots")]:
    lines = [l for l in (raw(name) or "").splitlines()
             if l.startswith(("loaded", "run ", "built-in", "plugin", "ratio", "FAILED")) or "invocations," in l]
    add(f"{what}:\n")
    add(fence("\n".join(lines) or "not run"))
    add(fence(command(name).strip(), "sh"))

# --- the whole command ----------------------------------------------------------------------
def whole_commands(text):
    """Each whole-command run a bench printed: (where, play, whole, ratio, its lines)."""
    out = []
    pattern = r"^whole command into (.+?), (phases \(wall time\):\n.*?^  whole command .*?$)"
    for where, block in re.findall(pattern, text or "", re.M | re.S):
        play = re.search(r"^  play +([\d.]+ s)", block, re.M)
        whole = re.search(r"^  whole command +([\d.]+ s) +\(([\d.]+x) play\)", block, re.M)
        if play and whole:
            out.append((where, play.group(1), whole.group(1), whole.group(2), block))
    return out


add("## The whole command, phase by phase\n")
add(
    "Each of the benchmarks above also runs the whole command as `koth <game> ... --out DIR` "
    "does (the journal, the results and ratings, the archive), twice into a temporary folder: "
    "empty, then holding the first run's archive; and prints where its time went, as "
    "`--timings` does ([the phases](hosts/tournaments.md#where-the-time-goes---timings)). "
    "The goal is a whole command at most 1.25× its play time. Loading is left out: the "
    "benchmark loaded the bots before.\n"
)
add("| benchmark | into | play | whole command | ÷ play |")
add("| --- | --- | --- | --- | --- |")
benches = [
    ("bench-coup", "Coup, the 13 seed bots"),
    ("bench-bank-heist", "Bank Heist, 13 bots, one tournament"),
    ("bench-euchre", "Euchre, 4 bots, every pair"),
    ("bench-play", "Euchre by its referee as a plugin"),
    ("bench-play-coup", "Coup by its referee as a plugin"),
]
for name, what in benches:
    runs = whole_commands(raw(name))
    if not runs:
        add(f"| {what} | not run | | | |")
    for where, play, whole, ratio, _ in runs:
        add(f"| {what} | {where} | {play} | {whole} | {ratio.replace('x', '×')} |")
add("")
for name, what in benches:
    runs = whole_commands(raw(name))
    if runs:
        add(f"{what}:\n")
        add(fence("\n".join(f"into {where}:\n{block}" for where, _, _, _, block in runs)))

# --- the contest server -----------------------------------------------------------------------
add("## The contest server under load\n")
add(
    "`koth bench serve --bots ...`: a contest of the thirteen seed Coup bots in a temporary "
    "folder, served by `koth serve` on a loopback port; the bench uploads the bots through the "
    "API (each upload starts a run) and, while those runs play, 200 readers each request the "
    "leaderboard page and its JSON in turn, each request on a new connection. The goal is a "
    "p99 under 50 ms on the 2-core machine.\n"
)
lines = [l for l in (raw("serve") or "").splitlines()
         if l.startswith(("the contest server at", "runs while", "FAILED", "koth:")) or " ok, " in l]
add(fence("\n".join(lines) or "not run"))
add(fence(command("serve").strip(), "sh"))

# --- every kind -----------------------------------------------------------------------------
add("## Every kind of bot in one tournament\n")
add(
    "One Coup tournament of a bot of every kind (modules in C, C++, Zig, AssemblyScript, Go and "
    "Rust, Rust, Python and JavaScript components, a plain Python script), two rounds:\n"
)
command_and_output("every-kind")

# --- ratings ------------------------------------------------------------------------------
add("## Rating intervals, paired and unpaired\n")
add(
    "The mean width of the bots' 95% rating intervals (high minus low, in Elo points), with "
    "and without `--paired` (duplicate deals), at seed 1. Narrower is better.\n"
)
add("| tournament | unpaired | paired |")
add("| --- | --- | --- |")


def mean_width(name, skip=()):
    p = WORK / name / "results.json"
    if not p.exists():
        return None
    bots = [b for b in json.loads(p.read_text())["bots"] if b["bot"] not in skip]
    return sum(b["rating"]["high"] - b["rating"]["low"] for b in bots) / len(bots)


def width_row(what, name, skip=()):
    u, pr = mean_width(name, skip), mean_width(name + "-paired", skip)
    fmt = lambda w: f"{w:.0f}" if w is not None else "not run"
    add(f"| {what} | {fmt(u)} | {fmt(pr)} |")


width_row("Euchre, 4 example bots, every pair", "rating-euchre")
width_row("Euchre, without Random 8020", "rating-euchre", skip=("random_8020",))
width_row("Coup, the 13 seed bots", "rating-coup")
add("")
add(fence("\n".join(command(n).strip() for n in ["rating-euchre", "rating-euchre-paired", "rating-coup", "rating-coup-paired"]), "sh"))

# --- report ---------------------------------------------------------------------------------
add("## The HTML report\n")
add(
    "`koth report` on each game's default demo (the bots `scripts/demo GAME` plays, default "
    "options) and on many Bank Heist tournaments: the size of the decision log (compressed), the page, "
    "and the time to write it. The page embeds the replays of the first 20 games and of up "
    "to 40 with a failure, so its size hardly grows with the archive.\n"
)
add("| archive | matches | decisions | `invocations.jsonl.zst` | report | time |")
add("| --- | --- | --- | --- | --- | --- |")
for d, what in [
    ("coup", "Coup, 14 bots"),
    ("bank-heist", "Bank Heist, 13 bots, 1 tournament"),
    ("euchre", "Euchre, 4 bots"),
    ("bank-heist-many", "Bank Heist, 13 bots, many tournaments"),
]:
    arch = WORK / f"demo-{d}"
    res = arch / "results.json"
    line = first_line(raw(f"report-{d}"), "Report (")
    if not res.exists() or not line:
        add(f"| {what} | failed | | | | |")
        continue
    results = json.loads(res.read_text())
    decisions = sum(b["invocations"] for b in results["bots"])
    if d == "bank-heist-many":
        what = f"Bank Heist, 13 bots, {len(results['matches'])} tournaments"
    if d == "coup":
        rounds = json.loads((arch / "manifest.json").read_text())["options"]["rounds"]
        what = f"Coup, 14 bots, {rounds} rounds"
    m = re.match(r"Report \(([\d.]+ MB), ([\d.]+ s)\)", line)
    add(
        f"| {what} | {len(results['matches']):,} | {decisions:,} | "
        f"{size(arch / 'invocations.jsonl.zst')} | {m.group(1)} | {m.group(2)} |"
    )
add("")
add(fence("\n".join(command(n).strip() for n in [
    "demo-coup", "demo-bank-heist", "demo-euchre", "demo-bank-heist-many",
    "report-coup", "report-bank-heist", "report-euchre", "report-bank-heist-many"]), "sh"))

# --- scaling and ladders ----------------------------------------------------------------------
add("## Every core, and ladders\n")
add(
    "`koth bench scale`: the demo's Coup tournament (the thirteen seed bots and the C bot) as "
    "a separate `koth coup --jobs J` process for J = 1, 2, 4, ... up to the cores, with the "
    "play time, its speed-up over one worker, and the CPU time, page faults and context "
    "switches the kernel charged per decision (a cost that grows with J is something the "
    "workers share). Every run's archive must be byte-identical. The same two benches on a "
    "machine with more cores, which has no Rust: `scripts/many-cores pack` here, then "
    "`scripts/many-cores run` there.\n"
)
command_and_output("scale")
add(
    "`koth bench ladder`: a ladder of N entries (distinct copies of the same fourteen modules, "
    "each with a custom section that gives it its own SHA-256) played into a `--reuse` store, "
    "then one more entry added: what the new entry played, what it took from the store, each "
    "phase and the disk. The second is a sampled ladder (`--opponents 10`), the format for "
    "ladders too big for a round robin.\n"
)
command_and_output("ladder")
command_and_output("ladder-sampled")
add(
    "`koth bench ladder --contest`: the first ladder as a contest's runs (what `koth serve` "
    "plays after each upload, in the bench's process), then two new entries one after the "
    "other: each run's time from queued to settled, the leaderboard and the new bot's page "
    "read as the server reads them, and the contest's disk by part after each run. Older "
    "runs are condensed as newer ones finish, so what a run adds is its new matches "
    "(see [the contest server](hosts/contest-server.md#disk-and-retention)).\n"
)
command_and_output("ladder-contest")

# --- hostcalls ------------------------------------------------------------------------------
add("## Host calls\n")
add(
    "`koth bench hostcalls`: every WASI function's costliest loop (see "
    "[WASI conformance](wasi-conformance.md#fuel-for-every-host-call)) against an endless "
    "pure-wasm `br` loop burning the same fuel. A ratio below 1 means the host call burns its "
    "fuel faster than plain wasm: no host call can make the host work longer than fuel "
    "allows.\n"
)
command_and_output("hostcalls")

# --- by hand --------------------------------------------------------------------------------
add("## Measured by hand\n")
add((Path(__file__).parent / "bench-by-hand.md").read_text())

OUT.write_text("\n".join(page).rstrip() + "\n")
