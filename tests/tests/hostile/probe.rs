//! A Rust probe prints everything a bot can observe (argv, environment, clocks, preopens,
//! the directory with inode numbers, times and order, random bytes): all of it must be
//! virtual and reproducible.

use crate::common::*;
use koth::sandbox::{Invocation, Outcome};

/// 2000-01-01T00:00:00Z in nanoseconds since the Unix epoch: the virtual realtime origin.
const Y2K_NS: u64 = 946_684_800 * 1_000_000_000;

/// The probe's stdout and fuel used, in a fresh Coup directory.
fn probe_run(seed: u8, clock_start_ns: u64) -> (String, u64) {
    let sb = sandbox();
    let bot = load_rust(&sb, "probe_env");
    let mut d = coup_dir();
    let inv = Invocation {
        stdin: b"line one\n".to_vec(),
        seed: [seed; 32],
        clock_start_ns,
        ..invocation()
    };
    let r = bot.invoke(&inv, Some(&mut d));
    assert_eq!(
        r.outcome,
        Outcome::Ok,
        "{r:?}\n{}",
        String::from_utf8_lossy(&r.stderr)
    );
    assert!(
        r.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    (String::from_utf8(r.stdout).unwrap(), r.fuel_used)
}

/// The probe's stdout.
fn probe(seed: u8, clock_start_ns: u64) -> String {
    probe_run(seed, clock_start_ns).0
}

fn line<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?} in\n{out}"))
}

/// The number after `key` in `line`.
fn number(line: &str, key: &str) -> u64 {
    let rest = &line[line
        .find(key)
        .unwrap_or_else(|| panic!("{key:?} not in {line:?}"))
        + key.len()..];
    rest.split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn everything_a_bot_observes_is_virtual() {
    let start = 7_000_000_000;
    let out = probe(1, start);
    // argv: the bot's name, then the game's arguments; no environment; cwd and the one
    // preopen are "/"; stdin as given.
    assert!(
        out.starts_with("argv[0]=\"probe_env\"\nargv[1]=\"history.txt\"\nenv count=0\n"),
        "{out}"
    );
    assert_eq!(line(&out, "cwd="), "cwd=Ok(\"/\")");
    assert_eq!(line(&out, "stdin="), "stdin=\"line one\\n\" (Ok(9))");
    assert_eq!(
        line(&out, "prestat fd 3"),
        "prestat fd 3: tag 0 name \"/\" errno 0"
    );
    assert_eq!(line(&out, "prestat fd 4"), "prestat fd 4: errno 8");
    // Clocks: realtime is 2000-01-01 + the invocation's start + fuel so far; monotonic and
    // the CPU clocks follow fuel too; an unknown clock is EINVAL.
    let realtime = number(line(&out, "clock 0:"), "time ");
    let monotonic = number(line(&out, "clock 1:"), "time ");
    assert!(
        (Y2K_NS + start..Y2K_NS + start + 100_000_000).contains(&realtime),
        "{realtime}"
    );
    assert!(
        (start..start + 100_000_000).contains(&monotonic),
        "{monotonic}"
    );
    assert!(
        monotonic > realtime - Y2K_NS,
        "monotonic was read after realtime"
    );
    assert!(number(line(&out, "clock 2:"), "time ") < 100_000_000);
    assert!(line(&out, "clock 4:").contains("errno 28"), "{out}");
    let systemtime = number(line(&out, "systemtime="), "systemtime=");
    assert!(
        (Y2K_NS..Y2K_NS + start + 100_000_000).contains(&systemtime),
        "{systemtime}"
    );
    // The directory: the host's history file (inode 2, stamped at virtual time 0), then the
    // probe's files in sorted order with inode numbers in creation order (zeta 3, alpha 4,
    // mid 5, beta 6), stamped with the virtual clock.
    let before = &out[out.find("-- tree before").unwrap()..out.find("-- tree after").unwrap()];
    assert_eq!(
        before,
        "-- tree before\n/history.txt: errno 0 dev 1 ino 2 type 4 nlink 1 size 2 atim 0 mtim 0 ctim 0\n\
         /history.txt: content \"I\\n\"\n"
    );
    let after = &out[out.find("-- tree after").unwrap()..out.find("-- read_dir .").unwrap()];
    let names: Vec<(&str, u64)> = after
        .lines()
        .filter(|l| l.contains(" ino "))
        .map(|l| (l.split(':').next().unwrap(), number(l, " ino ")))
        .collect();
    assert_eq!(
        names,
        [
            ("/alpha", 4),
            ("/history.txt", 2),
            ("/mid", 5),
            ("/mid/beta", 6),
            ("/zeta", 3)
        ]
    );
    let zeta = line(after, "/zeta: errno");
    let mtim = number(zeta, "mtim ");
    assert!(
        (Y2K_NS + start..Y2K_NS + start + 100_000_000).contains(&mtim),
        "{zeta}"
    );
    assert_eq!(
        line(&out, "zeta modified="),
        format!("zeta modified=Ok(Ok({mtim}))")
    );
    let listed: Vec<&str> = out[out.find("-- read_dir .").unwrap()..]
        .lines()
        .skip(1)
        .take(4)
        .collect();
    assert_eq!(
        listed,
        [
            "Ok(\"alpha\")",
            "Ok(\"history.txt\")",
            "Ok(\"mid\")",
            "Ok(\"zeta\")"
        ]
    );
    // Nothing of the host leaks: no host path, no real year.
    for leak in ["/work", "/home", "/tmp", "/proc", "target"] {
        assert!(!out.contains(leak), "{leak:?} in\n{out}");
    }
}

#[test]
fn the_probe_is_reproducible_and_only_random_bytes_follow_the_seed() {
    let a = probe(1, 0);
    let b = probe(1, 0);
    assert_eq!(
        a, b,
        "same seed, same directory: the same output byte for byte"
    );
    let c = probe(2, 0);
    let random = |s: &str| line(s, "random=").to_string();
    assert_ne!(random(&a), random(&c), "another seed, other random bytes");
    // Everything before the random bytes is independent of the seed.
    let without = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("random="))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(without(&a), without(&c));
    assert!(
        random(&a).ends_with(" errno 0")
            && random(&a).len() == "random=".len() + 64 + " errno 0".len()
    );
}
