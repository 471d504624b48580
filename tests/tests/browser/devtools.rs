//! A headless Chromium for the browser tests (`report.rs`, `serve.rs`): one run on the command
//! line (a screenshot), or a page driven through the DevTools protocol.
#![allow(dead_code)]

/// The flags Chromium needs headless, as root in a container, offline and quiet.
pub const CHROMIUM_FLAGS: [&str; 8] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

pub const CHROMIUM_MISSING: &str =
    "chromium is installed (scripts/setup installs it, or records why not in target/koth-skip-browser)";

/// How long any one exchange with Chromium may take.
pub const CHROMIUM_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(90);

/// Run Chromium once on the command line (a screenshot) with a fresh profile and a time limit.
pub fn chromium(args: &[String]) -> String {
    let profile = tempfile::Builder::new()
        .prefix("koth-chromium-")
        .tempdir()
        .expect("profile folder");
    let err = tempfile::NamedTempFile::new().expect("stderr file");
    let mut child = std::process::Command::new("chromium")
        .args(CHROMIUM_FLAGS)
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(err.reopen().expect("stderr"))
        .spawn()
        .expect(CHROMIUM_MISSING);
    let started = std::time::Instant::now();
    while child.try_wait().expect("wait for chromium").is_none() {
        if started.elapsed() > CHROMIUM_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish in time: {args:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::fs::read_to_string(err.path()).unwrap_or_default()
}

/// A headless Chromium driven through the DevTools protocol over `--remote-debugging-pipe`
/// (JSON messages ended by a NUL byte: commands on the browser's fd 3, answers and events on
/// its fd 4, which `sh` connects to our pipes), with one page open.
pub struct Devtools {
    child: std::process::Child,
    commands: std::process::ChildStdin,
    messages: std::sync::mpsc::Receiver<serde_json::Value>,
    next_id: u64,
    session: Option<String>,
    /// Every event received so far.
    events: Vec<serde_json::Value>,
    _profile: tempfile::TempDir,
}

impl Devtools {
    /// Start Chromium and open `url` in a page, with the console and log reported; returns
    /// once the page has loaded.
    pub fn open(url: &str) -> Devtools {
        use std::io::BufRead;
        use std::process::{Command, Stdio};
        let profile = tempfile::Builder::new()
            .prefix("koth-chromium-")
            .tempdir()
            .expect("profile folder");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(r#"exec chromium "$@" --remote-debugging-pipe 3<&0 4>&1 0</dev/null 1>/dev/null"#)
            .arg("sh")
            .args(CHROMIUM_FLAGS)
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect(CHROMIUM_MISSING);
        let commands = child.stdin.take().expect("the command pipe");
        let mut answers = std::io::BufReader::new(child.stdout.take().expect("the answer pipe"));
        let (tx, messages) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            while answers.read_until(0, &mut buf).is_ok_and(|n| n > 0) {
                if buf.last() == Some(&0) {
                    buf.pop();
                }
                if let Ok(v) = serde_json::from_slice(&buf) {
                    if tx.send(v).is_err() {
                        return;
                    }
                }
                buf.clear();
            }
        });
        let mut dev = Devtools {
            child,
            commands,
            messages,
            next_id: 0,
            session: None,
            events: Vec::new(),
            _profile: profile,
        };
        let target = dev.call(
            "Target.createTarget",
            serde_json::json!({"url": "about:blank"}),
        );
        let attached = dev.call(
            "Target.attachToTarget",
            serde_json::json!({"targetId": target["targetId"], "flatten": true}),
        );
        dev.session = Some(
            attached["sessionId"]
                .as_str()
                .expect("a session")
                .to_string(),
        );
        for domain in ["Runtime.enable", "Log.enable", "Page.enable"] {
            dev.call(domain, serde_json::json!({}));
        }
        dev.navigate(url);
        dev
    }

    /// Open `url` in the page and wait until it has loaded.
    pub fn navigate(&mut self, url: &str) {
        self.forget_loads();
        self.call("Page.navigate", serde_json::json!({ "url": url }));
        self.wait_load(url);
    }

    /// Forget the page loads seen so far (before an action that loads a page).
    pub fn forget_loads(&mut self) {
        self.events.retain(|e| e["method"] != "Page.loadEventFired");
    }

    /// Wait until the page has loaded (`what` names it in a failure).
    pub fn wait_load(&mut self, what: &str) {
        let deadline = std::time::Instant::now() + CHROMIUM_TIMEOUT;
        while !self
            .events
            .iter()
            .any(|e| e["method"] == "Page.loadEventFired")
        {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let m = self
                .messages
                .recv_timeout(left)
                .unwrap_or_else(|e| panic!("{what} did not load: {e}"));
            self.events.push(m);
        }
    }

    /// Send a command to the page (or the browser before a page is attached) and return its
    /// result; events that arrive meanwhile are kept.
    pub fn call(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        use std::io::Write;
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = serde_json::json!({"id": id, "method": method, "params": params});
        if let Some(s) = &self.session {
            msg["sessionId"] = s.clone().into();
        }
        let mut bytes = serde_json::to_vec(&msg).expect("encode");
        bytes.push(0);
        self.commands.write_all(&bytes).expect("send to chromium");
        self.commands.flush().expect("send to chromium");
        let deadline = std::time::Instant::now() + CHROMIUM_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let m = self
                .messages
                .recv_timeout(left)
                .unwrap_or_else(|e| panic!("no answer from chromium to {method}: {e}"));
            if m["id"] == id {
                assert!(m.get("error").is_none(), "{method}: {m}");
                return m["result"].clone();
            }
            self.events.push(m);
        }
    }

    /// Evaluate a JavaScript expression in the page; its value.
    pub fn eval(&mut self, expression: &str) -> serde_json::Value {
        let r = self.call(
            "Runtime.evaluate",
            serde_json::json!({"expression": expression, "returnByValue": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expression}: {r}");
        r["result"]["value"].clone()
    }

    /// Draw the page in a 1280×900 viewport at one device pixel per CSS pixel, so that a
    /// screenshot's pixels are the page's coordinates.
    pub fn fix_viewport(&mut self) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
        );
    }

    /// The viewport as drawn now, as PNG bytes.
    pub fn screenshot(&mut self) -> Vec<u8> {
        use base64::Engine;
        let shot = self.call(
            "Page.captureScreenshot",
            serde_json::json!({"format": "png"}),
        );
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("screenshot data"))
            .expect("the screenshot is base64")
    }

    /// Press a key, as a reader would.
    pub fn key(&mut self, key: &str, code: u32) {
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                serde_json::json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
            );
        }
    }

    /// Every console message (any level), uncaught exception and error or warning the
    /// browser logged for the page, so far.
    pub fn console(&self) -> Vec<String> {
        self.events
            .iter()
            .filter(|e| match e["method"].as_str() {
                Some("Runtime.consoleAPICalled" | "Runtime.exceptionThrown") => true,
                Some("Log.entryAdded") => {
                    matches!(
                        e["params"]["entry"]["level"].as_str(),
                        Some("error" | "warning")
                    )
                }
                _ => false,
            })
            .map(|e| e.to_string())
            .collect()
    }
}

impl Drop for Devtools {
    fn drop(&mut self) {
        // Close the browser politely, then make sure it is gone: no process outlives a test.
        self.session = None;
        use std::io::Write;
        let _ = self
            .commands
            .write_all(b"{\"id\":999999,\"method\":\"Browser.close\",\"params\":{}}\0");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while matches!(self.child.try_wait(), Ok(None)) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Open the report `page`, show decision `step` of its first replay, and count the elements
/// each of `selectors` matches in its board (`#view`); the board, or `null` for a hidden one,
/// comes first. The viewport is kept as `target/artifacts/viewer-NAME.png`, and no console
/// message may have been logged.
pub fn board_counts(
    page: &std::path::Path,
    step: usize,
    selectors: &[&str],
    name: &str,
) -> Vec<serde_json::Value> {
    let mut dev = Devtools::open(&format!("file://{}", page.display()));
    dev.fix_viewport();
    let list = serde_json::to_string(selectors).expect("selectors");
    let counts = dev.eval(&format!(
        "showStep({step}); const v = document.getElementById('view'); v.scrollIntoView(); \
         [v.hidden ? null : v.textContent, ...{list}.map((s) => v.querySelectorAll(s).length)]"
    ));
    let png = dev.screenshot();
    let artifacts = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/artifacts");
    std::fs::create_dir_all(&artifacts).expect("target/artifacts");
    std::fs::write(artifacts.join(format!("viewer-{name}.png")), &png)
        .expect("write the screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 5_000,
        "{name}: {}",
        png.len()
    );
    let console = dev.console();
    assert!(console.is_empty(), "{name}: {console:#?}");
    counts.as_array().expect("the counts").clone()
}

/// In a page open at a replay whose game ships its own viewer (the hostile referee's:
/// one row of 16-pixel squares of `#c0392b` per seat that spoke, rows 30 pixels apart
/// from y = 10 in its frame), wait until the frame has drawn `rows` rows and sized itself,
/// then count each row's squares in a screenshot, kept as `target/artifacts/viewer-NAME.png`.
/// The frame must be cross-origin to the page (sandboxed), and no console message logged
/// (a script the frame's policy refused would log one).
pub fn plugin_squares(dev: &mut Devtools, rows: usize, name: &str) -> Vec<usize> {
    dev.fix_viewport();
    let frame = "document.querySelector('#plugin-view iframe')";
    let want = 20 + 30 * rows;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let h = dev.eval(&format!(
            "(() => {{ const f = {frame}; if (!f) return -1; f.scrollIntoView(); \
             return Math.round(f.getBoundingClientRect().height); }})()"
        ));
        if h.as_u64() == Some(want as u64) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{name}: the viewer's frame is {h} pixels high, not {want}: {:#?}",
            dev.console()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(
        dev.eval(&format!(
            "{frame}.contentDocument === null && {frame}.sandbox.value"
        )),
        "allow-scripts",
        "{name}: the frame is sandboxed, its document out of the page's reach"
    );
    let rect = dev.eval(&format!(
        "(() => {{ const r = {frame}.getBoundingClientRect(); \
         return [Math.round(r.left), Math.round(r.top), Math.round(r.right)]; }})()"
    ));
    let [left, top, right] = [0, 1, 2].map(|i| rect[i].as_u64().expect("a coordinate") as usize);
    let png = dev.screenshot();
    let artifacts = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/artifacts");
    std::fs::create_dir_all(&artifacts).expect("target/artifacts");
    std::fs::write(artifacts.join(format!("viewer-{name}.png")), &png)
        .expect("write the screenshot");
    let decoder = png::Decoder::new(std::io::Cursor::new(&png));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).expect("the PNG's pixels");
    let channels = info.color_type.samples();
    let counts = (0..rows)
        .map(|row| {
            let y = top + 10 + 30 * row + 8;
            assert!(
                y < info.height as usize,
                "{name}: row {row} in the viewport"
            );
            let line = &pixels[y * info.line_size..(y + 1) * info.line_size];
            let red = |x: usize| line[x * channels..x * channels + 3] == [0xc0, 0x39, 0x2b];
            (left..right.min(info.width as usize))
                .filter(|&x| red(x) && (x == left || !red(x - 1)))
                .count()
        })
        .collect();
    let console = dev.console();
    assert!(console.is_empty(), "{name}: {console:#?}");
    counts
}
