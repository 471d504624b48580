//! Attack through a real toolchain: try to leave the virtual directory with nothing but Rust's
//! std (whose wasm32-wasip1 port resolves paths through wasi-libc against the preopens), the
//! way a careless or curious bot author would. One line per attempt, `label: result`, where a
//! result is `ok <what>` or `err <raw errno>`.

use std::fs;
use std::io;

fn show<T>(label: &str, r: io::Result<T>, what: impl FnOnce(T) -> String) {
    match r {
        Ok(v) => println!("{label}: ok {}", what(v)),
        Err(e) => println!(
            "{label}: err {}",
            e.raw_os_error()
                .map_or_else(|| format!("{:?}", e.kind()), |n| n.to_string())
        ),
    }
}

fn bytes(v: Vec<u8>) -> String {
    format!("{:?}", String::from_utf8_lossy(&v))
}

fn names(dir: fs::ReadDir) -> String {
    let mut all: Vec<String> = dir
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    all.sort();
    all.join(",")
}

fn main() {
    show("read /etc/passwd", fs::read("/etc/passwd"), bytes);
    show("read ../../etc/passwd", fs::read("../../etc/passwd"), bytes);
    show("read /../etc/passwd", fs::read("/../etc/passwd"), bytes);
    show(
        "read /proc/self/environ",
        fs::read("/proc/self/environ"),
        bytes,
    );
    show("read /dev/urandom", fs::read("/dev/urandom"), bytes);
    show("read_dir /", fs::read_dir("/"), names);
    show("read_dir ..", fs::read_dir(".."), names);
    show("read_dir /..", fs::read_dir("/.."), names);
    show("read_dir /tmp", fs::read_dir("/tmp"), names);
    show("canonicalize ..", fs::canonicalize(".."), |p| {
        p.display().to_string()
    });
    show("hard_link", fs::hard_link("history.txt", "h2"), |()| {
        String::new()
    });
    show("copy history", fs::copy("history.txt", "copy.txt"), |n| {
        n.to_string()
    });
    show("write ../x", fs::write("../x", b"x"), |()| String::new());
    show("create_dir /..", fs::create_dir("/../x"), |()| {
        String::new()
    });
    show(
        "rename to ..",
        fs::rename("copy.txt", "../copy.txt"),
        |()| String::new(),
    );
    show(
        "set_current_dir ..",
        std::env::set_current_dir(".."),
        |()| String::new(),
    );
    show("current_dir", std::env::current_dir(), |p| {
        p.display().to_string()
    });
    show("read history.txt", fs::read("history.txt"), bytes);
    show("metadata /", fs::metadata("/"), |m| {
        format!("dir {}", m.is_dir())
    });
    show("metadata /etc", fs::metadata("/etc"), |m| {
        format!("dir {}", m.is_dir())
    });
    show("remove_dir_all /", fs::remove_dir_all("/"), |()| {
        String::new()
    });
    show("read_dir / after", fs::read_dir("/"), names);
}
