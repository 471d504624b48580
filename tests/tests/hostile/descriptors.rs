//! Attacks on the descriptor table: probing every number, exhausting the table.

use crate::common::*;
use koth::sandbox::{Errno, Outcome};

#[test]
fn probing_descriptors_0_to_4095_finds_only_stdio_and_the_root() {
    let sb = sandbox();
    let bot = load(&sb, "fd_probe");
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let badf = errno(Errno::Badf);
    #[rustfmt::skip]
    assert_eq!(values(&r), vec![
        0, 0, 1, 0, 2, 0, 3, 3, -1, 0,      // fdstat: stdio (type unknown) and the root directory
        3, 0, 1, 0, i64::from(b'/'), -1, 0,  // the one preopen: fd 3, a directory named "/"
        badf, badf, badf, badf, badf,       // fdstat(-1), close(4095), renumber both ways, prestat(0)
        errno(Errno::Nametoolong),          // the preopen's name does not fit in 0 bytes
    ]);
    // Without a directory there is no fd 3.
    let r = bot.invoke(&invocation(), None);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(
        values(&r),
        vec![0, 0, 1, 0, 2, 0, -1, 0, -1, 0, badf, badf, badf, badf, badf, badf]
    );
    assert_host_unharmed(&sb);
}

#[test]
fn exhausting_descriptors_is_emfile_at_64() {
    let sb = sandbox();
    let bot = load(&sb, "fd_exhaust");
    let mut d = coup_dir();
    let mfile = errno(Errno::Mfile);
    // Twice on the same directory: descriptors do not outlive an invocation.
    for _ in 0..2 {
        let r = run(&bot, &mut d);
        assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
        assert_eq!(values(&r), vec![60, mfile, 0, 0, 10, mfile, mfile, 0, 10]);
        // The refused O_CREAT created nothing.
        assert_eq!(d.snapshot(), vec![file("history.txt", HISTORY)]);
    }
    assert_host_unharmed(&sb);
}
