//! Probe: prints everything a bot can observe of its environment, one fact per line, so that
//! the hostile suite can check that all of it is virtual and reproducible.
//!
//! Order matters: the random bytes are printed last, so that every line before them is
//! independent of the seed (printing them costs a data-dependent amount of fuel, and the
//! virtual clocks follow fuel).
//!
//! Lines: argv, environment, current directory, stdin, preopens, clocks (raw WASI and std),
//! the directory tree with kinds, inode numbers, link counts, sizes and times (raw
//! `path_filestat_get`) in the order `fd_readdir` gives, then the same after creating `zeta`,
//! `alpha` and `mid/beta` in that (unsorted) order, then 32 random bytes.

#[cfg(target_os = "wasi")]
mod wasi {
    //! The few WASI preview 1 calls std does not expose, imported directly.
    #[link(wasm_import_module = "wasi_snapshot_preview1")]
    extern "C" {
        pub fn clock_time_get(id: u32, precision: u64, out: *mut u64) -> i32;
        pub fn clock_res_get(id: u32, out: *mut u64) -> i32;
        pub fn random_get(buf: *mut u8, len: usize) -> i32;
        pub fn path_filestat_get(
            fd: u32,
            flags: u32,
            path: *const u8,
            len: usize,
            out: *mut u8,
        ) -> i32;
        pub fn fd_prestat_get(fd: u32, out: *mut u8) -> i32;
        pub fn fd_prestat_dir_name(fd: u32, buf: *mut u8, len: usize) -> i32;
    }
}

#[cfg(target_os = "wasi")]
fn main() {
    use std::io::Read;

    for (i, a) in std::env::args_os().enumerate() {
        println!("argv[{i}]={a:?}");
    }
    let vars: Vec<_> = std::env::vars_os().collect();
    println!("env count={}", vars.len());
    for (k, v) in &vars {
        println!("env {k:?}={v:?}");
    }
    println!("cwd={:?}", std::env::current_dir());
    let mut stdin = Vec::new();
    let read = std::io::stdin().read_to_end(&mut stdin);
    println!(
        "stdin={:?} ({:?})",
        String::from_utf8_lossy(&stdin),
        read.map_err(|e| e.to_string())
    );

    for fd in 3..6u32 {
        let mut pre = [0u8; 8];
        // SAFETY: the buffers are valid for the lengths passed.
        let err = unsafe { wasi::fd_prestat_get(fd, pre.as_mut_ptr()) };
        if err != 0 {
            println!("prestat fd {fd}: errno {err}");
            continue;
        }
        let len = u32::from_le_bytes([pre[4], pre[5], pre[6], pre[7]]) as usize;
        let mut name = vec![0u8; len];
        // SAFETY: as above.
        let err = unsafe { wasi::fd_prestat_dir_name(fd, name.as_mut_ptr(), len) };
        println!(
            "prestat fd {fd}: tag {} name {:?} errno {err}",
            pre[0],
            String::from_utf8_lossy(&name)
        );
    }

    for id in 0..5u32 {
        let (mut t, mut r) = (0u64, 0u64);
        // SAFETY: `t` and `r` are valid u64 outputs.
        let (e1, e2) = unsafe {
            (
                wasi::clock_time_get(id, 1, &mut t),
                wasi::clock_res_get(id, &mut r),
            )
        };
        println!("clock {id}: time {t} errno {e1} res {r} errno {e2}");
    }
    match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => println!("systemtime={}", d.as_nanos()),
        Err(e) => println!("systemtime before epoch by {:?}", e.duration()),
    }
    let start = std::time::Instant::now();
    let spin: u64 = (0..1000u64).map(std::hint::black_box).sum();
    println!(
        "instant elapsed={} (spin {spin})",
        start.elapsed().as_nanos()
    );

    println!("-- tree before");
    tree("/");
    std::fs::write("zeta", b"last letter").expect("create zeta");
    std::fs::write("alpha", b"first").expect("create alpha");
    std::fs::create_dir("mid").expect("create mid");
    std::fs::write("/mid/beta", b"b").expect("create mid/beta");
    println!("-- tree after");
    tree("/");
    println!("-- read_dir .");
    for e in std::fs::read_dir(".").expect("read_dir .") {
        println!("{:?}", e.map(|e| e.file_name()).map_err(|e| e.to_string()));
    }
    let modified = std::fs::metadata("zeta").and_then(|m| m.modified());
    println!(
        "zeta modified={:?}",
        modified.map(|t| t
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos()))
    );

    let mut bytes = [0u8; 32];
    // SAFETY: the buffer is valid for 32 bytes.
    let err = unsafe { wasi::random_get(bytes.as_mut_ptr(), bytes.len()) };
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    println!("random={hex} errno {err}");
}

/// Print every node under `dir`, depth first, in the order the directory lists them.
#[cfg(target_os = "wasi")]
fn tree(dir: &str) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            println!("{dir}: {e}");
            return;
        }
    };
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                println!("{dir}: entry error {e}");
                continue;
            }
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if dir.ends_with('/') {
            format!("{dir}{name}")
        } else {
            format!("{dir}/{name}")
        };
        // The preopen is "/": paths are passed relative to it.
        let rel = path.trim_start_matches('/');
        let mut st = [0u8; 64];
        // SAFETY: `rel` and `st` are valid for the lengths passed.
        let err =
            unsafe { wasi::path_filestat_get(3, 0, rel.as_ptr(), rel.len(), st.as_mut_ptr()) };
        let word = |i: usize| u64::from_le_bytes(st[i..i + 8].try_into().expect("8 bytes"));
        println!(
            "{path}: errno {err} dev {} ino {} type {} nlink {} size {} atim {} mtim {} ctim {}",
            word(0),
            word(8),
            st[16],
            word(24),
            word(32),
            word(40),
            word(48),
            word(56)
        );
        if let Ok(content) = std::fs::read(&path) {
            println!("{path}: content {:?}", String::from_utf8_lossy(&content));
        }
        if st[16] == 3 {
            tree(&path);
        }
    }
}

#[cfg(not(target_os = "wasi"))]
fn main() {
    eprintln!("probe_env is a wasm32-wasip1 bot");
    std::process::exit(2);
}
