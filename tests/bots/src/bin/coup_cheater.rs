//! A Coup bot that breaks one rule, chosen by its name (argv[0] = `cheat_<mode>`), so the tests
//! can load the same module under many names. Modes that don't cheat play the first legal
//! action. `counter` keeps a scratch file counting its invocations (for scratch-scope tests).

use std::fs::{self, OpenOptions};
use std::io::{Read, Write};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args[0].strip_prefix("cheat_").unwrap_or("play").to_string();
    let file = args[1].clone();
    let cards = args[4].clone();
    let legal = &args[5..];
    let first = legal[0].clone();
    let append = |text: &str| {
        let mut f = OpenOptions::new()
            .append(true)
            .open(&file)
            .expect("open history");
        f.write_all(text.as_bytes()).expect("append");
    };
    let history = {
        let mut s = String::new();
        fs::File::open(&file)
            .and_then(|mut f| f.read_to_string(&mut s))
            .expect("read history");
        s
    };
    match mode.as_str() {
        "rewrite" => {
            let mut bytes = history.into_bytes();
            if let Some(b) = bytes.first_mut() {
                *b = if *b == b'I' { b'F' } else { b'I' };
            }
            bytes.extend_from_slice(first.as_bytes());
            fs::write(&file, bytes).expect("rewrite");
        }
        "truncate" => {
            // Drop the last byte of the history (a no-op on an empty one).
            let keep = history.len().saturating_sub(1);
            fs::write(&file, &history.as_bytes()[..keep]).expect("truncate");
        }
        "delete" => fs::remove_file(&file).expect("delete"),
        "rename" => {
            fs::rename(&file, "moved.txt").expect("rename");
            let mut f = OpenOptions::new()
                .append(true)
                .open("moved.txt")
                .expect("open moved");
            f.write_all(first.as_bytes()).expect("append moved");
        }
        "directory" => {
            fs::remove_file(&file).expect("delete");
            fs::create_dir(&file).expect("mkdir");
        }
        "symlink" => {
            fs::rename(&file, "real.txt").expect("rename");
            append_to("real.txt", &first);
            // `soft_link` is the one stable symlink call on both wasip1 and the host.
            #[allow(deprecated)]
            fs::soft_link("real.txt", &file).expect("symlink");
        }
        "append3" => append(&format!("{first}xyz")),
        "illegal" => append("Z"),
        "nothing" => {}
        "exchange" => {
            if cards.len() >= 3 && legal.iter().any(|l| l == "\n") {
                // Finishing an Exchange: keep a card that was never offered.
                let bogus = if cards.contains('$') { "$$$" } else { "$" };
                print!("{bogus}");
                append("\n");
            } else if legal.iter().any(|l| l == "E") {
                append("E");
            } else {
                append(&first);
            }
        }
        "trap" => panic!("deliberate panic"),
        "exit" => std::process::exit(1),
        "spin" => {
            let mut x: u64 = 1;
            loop {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                std::hint::black_box(x);
            }
        }
        "stdout" => {
            let chunk = vec![b'x'; 4096];
            let mut out = std::io::stdout().lock();
            for _ in 0..64 {
                out.write_all(&chunk).expect("stdout");
            }
            out.flush().expect("flush");
        }
        "counter" => {
            let n: u64 = fs::read_to_string("counter")
                .ok()
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(0);
            fs::write("counter", format!("{}\n", n + 1)).expect("counter");
            eprintln!("invocation {}", n + 1);
            append(&first);
            if cards.len() >= 3 && first == "\n" {
                let keep = cards.len() - 2;
                print!("{}", &cards[..keep]);
            }
        }
        _ => {
            append(&first);
            if cards.len() >= 3 && first == "\n" {
                let keep = cards.len() - 2;
                print!("{}", &cards[..keep]);
            }
        }
    }
}

fn append_to(path: &str, text: &str) {
    let mut f = OpenOptions::new().append(true).open(path).expect("open");
    f.write_all(text.as_bytes()).expect("append");
}
