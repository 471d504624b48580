//! One hostile component, many attacks: `argv[1]` names the attack. The component tests
//! (`tests/tests/components.rs`) assert the outcome of each, as the hostile suite does for
//! core modules.

use std::io::Write;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

fn main() {
    let attack = std::env::args().nth(1).unwrap_or_default();
    match attack.as_str() {
        // Burn fuel forever.
        "loop" => {
            let mut x: u64 = 0;
            loop {
                x = std::hint::black_box(x.wrapping_add(1));
            }
        }
        // Allocate until the memory limit refuses a grow.
        "grow" => {
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                hoard.push(vec![1u8; 1 << 20]);
                std::hint::black_box(&hoard);
            }
        }
        // Recurse without end.
        "stack" => {
            println!("{}", recurse(std::hint::black_box(1)));
        }
        // Print far more than the 64 KiB of stdout.
        "output" => {
            let line = [b'x'; 1024];
            let mut out = std::io::stdout().lock();
            loop {
                if out.write_all(&line).is_err() {
                    std::process::exit(9);
                }
            }
        }
        // Flood stderr: kept up to its cap, never a violation.
        "stderr" => {
            let line = [b'e'; 1024];
            for _ in 0..200 {
                let _ = std::io::stderr().write_all(&line);
            }
            println!("done");
        }
        // Print the clocks: virtual, so the same on every run and moved only by fuel.
        "clock" => {
            let t0 = Instant::now();
            let mut x = 0u64;
            for i in 0..100_000u64 {
                x = std::hint::black_box(x ^ i);
            }
            let dt = t0.elapsed().as_nanos();
            let wall = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            println!("elapsed {dt} wall {wall} {x}");
        }
        // A long sleep: it must not block the host, only move the virtual clock.
        "sleep" => {
            let t0 = Instant::now();
            std::thread::sleep(std::time::Duration::from_secs(3600));
            println!("slept {}", t0.elapsed().as_secs());
        }
        // Print random bytes: the same for the same invocation seed.
        "random" => {
            let mut m = std::collections::HashMap::new();
            for i in 0..8 {
                m.insert(i, i);
            }
            let order: Vec<i32> = m.keys().copied().collect();
            println!("hashmap order {order:?}");
        }
        // Reach for the network.
        "network" => match std::net::TcpStream::connect("127.0.0.1:80") {
            Ok(_) => println!("connected"),
            Err(e) => println!("refused: {e}"),
        },
        // WASI 0.2's stable `exit` carries only ok or err: any non-zero status is `exit(1)`.
        "exit" => std::process::exit(3),
        // Hoard host handles: every call to `stdout()` makes a new output stream.
        "handles" => {
            let mut hoard = Vec::new();
            loop {
                hoard.push(wasi_stdout());
            }
        }
        "panic" => panic!("on purpose"),
        // The cheapest calls that make the host work hardest: each must cost fuel in
        // proportion to the host's work, so that the loop ends `out of fuel`, not at the
        // wall-clock backstop.
        // 1 MiB to stderr per call (kept to its cap, the rest counted and dropped).
        "stderr-flood" => {
            let handle = raw::get_stderr();
            let buf = vec![b'e'; 1 << 20];
            loop {
                raw::write(handle, &buf);
            }
        }
        // Ask for the arguments again and again: each call copies all of them into this
        // memory (host work), while what the guest does per call does not grow with them.
        "args-loop" => {
            for _ in 0..100 {
                std::hint::black_box(raw::arguments());
            }
            println!("done");
        }
        // 1 MiB of random bytes per call.
        "random-flood" => loop {
            std::hint::black_box(raw::random_bytes(1 << 20));
        },
        // Poll as many pollables as the handle cap allows, again and again.
        "poll-flood" => {
            let mut pollables = Vec::new();
            while pollables.len() < 500 {
                pollables.push(raw::subscribe_duration(0));
            }
            loop {
                raw::poll(&pollables);
            }
        }
        _ => println!("ok"),
    }
}

/// Recursion that lives on the wasm stack only (no locals in linear memory), so that the
/// engine's stack limit, not the shadow stack, is what ends it.
/// A fresh `wasi:cli/stdout` stream handle, through the adapter-free raw import.
fn wasi_stdout() -> u32 {
    #[link(wasm_import_module = "wasi:cli/stdout@0.2.0")]
    extern "C" {
        #[link_name = "get-stdout"]
        fn get_stdout() -> u32;
    }
    // SAFETY: the import takes nothing and returns a handle index.
    unsafe { get_stdout() }
}

fn recurse(n: u64) -> u64 {
    if std::hint::black_box(n) == 0 {
        return 0;
    }
    recurse(std::hint::black_box(n + 1)).wrapping_add(std::hint::black_box(n))
}

/// WASI 0.2 functions called through their raw canonical-ABI imports, one host call each
/// (std would split or cache them).
mod raw {
    #[link(wasm_import_module = "wasi:cli/stderr@0.2.0")]
    extern "C" {
        #[link_name = "get-stderr"]
        fn get_stderr_raw() -> u32;
    }
    #[link(wasm_import_module = "wasi:io/streams@0.2.0")]
    extern "C" {
        #[link_name = "[method]output-stream.write"]
        fn write_raw(stream: u32, ptr: *const u8, len: usize, ret: *mut u8);
    }
    #[link(wasm_import_module = "wasi:cli/environment@0.2.0")]
    extern "C" {
        #[link_name = "get-arguments"]
        fn get_arguments_raw(ret: *mut usize);
    }
    #[link(wasm_import_module = "wasi:random/random@0.2.0")]
    extern "C" {
        #[link_name = "get-random-bytes"]
        fn random_bytes_raw(len: u64, ret: *mut usize);
    }
    #[link(wasm_import_module = "wasi:clocks/monotonic-clock@0.2.0")]
    extern "C" {
        #[link_name = "subscribe-duration"]
        fn subscribe_duration_raw(ns: u64) -> u32;
    }
    #[link(wasm_import_module = "wasi:io/poll@0.2.0")]
    extern "C" {
        #[link_name = "poll"]
        fn poll_raw(ptr: *const u32, len: usize, ret: *mut usize);
    }

    pub fn get_stderr() -> u32 {
        // SAFETY: takes nothing, returns a handle index.
        unsafe { get_stderr_raw() }
    }

    /// `output-stream.write`: the host copies all of `buf`; the result is ignored.
    pub fn write(stream: u32, buf: &[u8]) {
        let mut ret = [0u8; 16];
        // SAFETY: `buf` is valid for its length; `ret` has room for the result.
        unsafe { write_raw(stream, buf.as_ptr(), buf.len(), ret.as_mut_ptr()) }
    }

    /// `get-random-bytes(len)`: the host allocates the list in our memory through
    /// `cabi_realloc`; it is leaked, which `grow` would end, but fuel ends it first.
    pub fn random_bytes(len: u64) -> usize {
        let mut ret = [0usize; 2];
        // SAFETY: `ret` receives the list's pointer and length.
        unsafe { random_bytes_raw(len, ret.as_mut_ptr()) };
        // Give the list back, so that the loop is bounded by fuel, not memory.
        let (ptr, n) = (ret[0], ret[1]);
        if n > 0 {
            let layout = std::alloc::Layout::from_size_align(n, 1).expect("layout");
            // SAFETY: the host allocated it with `cabi_realloc`, which is std's allocator.
            unsafe { std::alloc::dealloc(ptr as *mut u8, layout) };
        }
        n
    }

    /// `get-arguments`: the list is left where the host put it (a few kilobytes per call).
    pub fn arguments() -> usize {
        let mut ret = [0usize; 2];
        // SAFETY: `ret` receives the list's pointer and length.
        unsafe { get_arguments_raw(ret.as_mut_ptr()) };
        ret[1]
    }

    pub fn subscribe_duration(ns: u64) -> u32 {
        // SAFETY: returns a handle index.
        unsafe { subscribe_duration_raw(ns) }
    }

    /// `poll(list<borrow<pollable>>)`: the host allocates the ready list, given back.
    pub fn poll(pollables: &[u32]) -> usize {
        let mut ret = [0usize; 2];
        // SAFETY: the handles are ours; `ret` receives the list.
        unsafe { poll_raw(pollables.as_ptr(), pollables.len(), ret.as_mut_ptr()) };
        let (ptr, n) = (ret[0], ret[1]);
        if n > 0 {
            let layout = std::alloc::Layout::from_size_align(n * 4, 4).expect("layout");
            // SAFETY: allocated by the host through `cabi_realloc`.
            unsafe { std::alloc::dealloc(ptr as *mut u8, layout) };
        }
        n
    }
}
