//! A one-node Slurm cluster on this machine, for running `deploy/slurm/` on a real Slurm:
//! Debian's `munged`, `slurmctld` and `slurmd` started in the foreground with a generated
//! `slurm.conf`, every file of theirs (munge key, sockets, state, spool, logs) in one temporary
//! folder, listening on 127.0.0.1 only, on ports that were free.
//!
//! [`Cluster::start`] says why when Slurm cannot run here (not installed, not root, a daemon
//! refusing to start), so the test can report itself skipped by name. Once the cluster is up,
//! anything that goes wrong panics with the daemons' logs. Dropping the cluster cancels its
//! jobs, shuts the daemons down, kills whatever of theirs is left and removes the folder, so a
//! failing test leaves nothing behind either.

use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long the daemons may take to come up: munge's socket, the controller, an idle node.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the daemons may take to stop, and the jobs to go, when the cluster is dropped.
const STOP_TIMEOUT: Duration = Duration::from_secs(20);
/// How long one Slurm command may take.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);
/// How often a wait asks again.
const POLL: Duration = Duration::from_millis(100);
/// The node's name in `slurm.conf` (slurmd is told it with `-N`, whatever the host is called).
const NODE: &str = "kothnode";
/// The daemons, by the name of their program.
const DAEMONS: [&str; 3] = ["munged", "slurmctld", "slurmd"];

/// A running one-node cluster; see the module's documentation.
pub struct Cluster {
    /// The daemons, in [`DAEMONS`] order (an `Option` so that `Drop` can take them).
    daemons: Vec<Option<Child>>,
    /// `slurm.conf`, handed to every Slurm command and daemon as `SLURM_CONF`.
    conf: PathBuf,
    /// munged's socket, which says munge is up.
    munge_socket: PathBuf,
    /// Everything the cluster writes; removed last, when it drops.
    dir: tempfile::TempDir,
}

impl Cluster {
    /// Start munged, slurmctld and slurmd, and wait until the node is idle. `Err` says why
    /// Slurm cannot run here, with the daemons' logs when one of them refused.
    pub fn start() -> Result<Cluster, String> {
        if !is_root() {
            return Err("not root: slurmd runs jobs as their user, which needs root".into());
        }
        let mut programs = Vec::new();
        for name in DAEMONS
            .into_iter()
            .chain(["sbatch", "scontrol", "squeue", "sinfo", "scancel"])
        {
            programs.push(program(name).ok_or_else(|| {
                format!("no `{name}` on PATH or in /usr/sbin (apt-get install slurm-wlm munge)")
            })?);
        }
        let dir = tempfile::Builder::new()
            .prefix("koth-slurm-")
            .tempdir()
            .map_err(|e| format!("a temporary folder: {e}"))?;
        let made = Layout::make(dir.path()).map_err(|e| format!("the cluster's folder: {e}"))?;
        let mut cluster = Cluster {
            daemons: Vec::new(),
            conf: made.conf,
            munge_socket: made.munge_socket,
            dir,
        };
        let [munged, slurmctld, slurmd] = [&programs[0], &programs[1], &programs[2]];
        let mut munge = Command::new(munged);
        munge
            .arg("--foreground")
            .arg(format!("--key-file={}", made.munge_key.display()))
            .arg(format!("--socket={}", cluster.munge_socket.display()))
            .arg(format!(
                "--pid-file={}",
                made.run.join("munged.pid").display()
            ))
            .arg(format!("--seed-file={}", made.seed.display()));
        cluster.spawn("munged", munge)?;
        cluster.wait_to_start("munged to make its socket", |c| c.munge_socket.exists())?;
        let mut ctld = Command::new(slurmctld);
        ctld.arg("-D");
        cluster.spawn("slurmctld", ctld)?;
        let mut d = Command::new(slurmd);
        d.args(["-D", "-N", NODE]);
        cluster.spawn("slurmd", d)?;
        cluster.wait_to_start("the node to be idle", |c| {
            c.run("sinfo", &["-h", "-N", "-o", "%t"]).is_ok_and(|o| {
                o.status.success() && String::from_utf8_lossy(&o.stdout).trim() == "idle"
            })
        })?;
        Ok(cluster)
    }

    /// Start one daemon with `SLURM_CONF`, its output to `log/<name>.log`.
    fn spawn(&mut self, name: &str, mut command: Command) -> Result<(), String> {
        let log =
            std::fs::File::create(self.log_path(name)).map_err(|e| format!("{name}'s log: {e}"))?;
        let err = log.try_clone().map_err(|e| format!("{name}'s log: {e}"))?;
        self.environment(&mut command);
        let child = command
            .stdout(log)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start {name}: {e}"))?;
        self.daemons.push(Some(child));
        Ok(())
    }

    /// Wait, at most [`START_TIMEOUT`], for `ready` while every daemon started so far runs;
    /// `Err` names what did not happen, with the logs.
    fn wait_to_start(
        &mut self,
        what: &str,
        ready: impl Fn(&Cluster) -> bool,
    ) -> Result<(), String> {
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if ready(self) {
                return Ok(());
            }
            for (name, child) in DAEMONS.iter().zip(&mut self.daemons) {
                if let Some(Ok(Some(status))) = child.as_mut().map(Child::try_wait) {
                    return Err(format!(
                        "{name} refused to start ({status}) while waiting for {what}\n{}",
                        self.logs()
                    ));
                }
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "no {what} after {START_TIMEOUT:?}\n{}",
                    self.logs()
                ));
            }
            std::thread::sleep(POLL);
        }
    }

    /// `slurm.conf`: what a program that calls Slurm itself (`koth serve`) needs as
    /// `SLURM_CONF` to use this cluster.
    #[allow(dead_code)]
    pub fn conf(&self) -> &Path {
        &self.conf
    }

    /// A Slurm command for this cluster (`SLURM_CONF` set, no inherited Slurm options).
    pub fn command(&self, program_name: &str) -> Command {
        let mut c = Command::new(program(program_name).unwrap_or_else(|| program_name.into()));
        self.environment(&mut c);
        c.stdin(Stdio::null());
        c
    }

    /// `SLURM_CONF` for this cluster, and none of the caller's `SLURM_*` or `SBATCH_*`
    /// variables: a test run inside a Slurm job must not hand its own job's settings on.
    fn environment(&self, command: &mut Command) {
        for (key, _) in std::env::vars_os() {
            let k = key.to_string_lossy();
            if k.starts_with("SLURM_") || k.starts_with("SBATCH_") {
                command.env_remove(&key);
            }
        }
        command.env("SLURM_CONF", &self.conf);
    }

    /// Run a Slurm command, killed if it has not finished within [`COMMAND_TIMEOUT`] (a
    /// client retries a controller that does not answer; a test must not wait forever).
    fn run(&self, program_name: &str, args: &[&str]) -> std::io::Result<Output> {
        self.run_within(program_name, args, COMMAND_TIMEOUT)
    }

    fn run_within(
        &self,
        program_name: &str,
        args: &[&str],
        limit: Duration,
    ) -> std::io::Result<Output> {
        output_within(self.command(program_name).args(args), limit)
    }

    /// Run a Slurm command that must succeed; its standard output.
    pub fn ok(&self, program_name: &str, args: &[&str]) -> String {
        let o = self
            .run(program_name, args)
            .unwrap_or_else(|e| panic!("cannot run {program_name}: {e}"));
        assert!(
            o.status.success(),
            "{program_name} {args:?} failed ({}): {}{}\n{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
            self.logs()
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// `sbatch --parsable` from the folder `cwd`, with `env` added to the job's environment
    /// (sbatch hands a job the environment it was called with); the job's id.
    pub fn sbatch(&self, cwd: &Path, env: &[(&str, &std::ffi::OsStr)], args: &[&str]) -> String {
        let mut c = self.command("sbatch");
        c.current_dir(cwd).arg("--parsable").args(args);
        for (k, v) in env {
            c.env(k, v);
        }
        let o = output_within(&mut c, COMMAND_TIMEOUT).expect("run sbatch");
        assert!(
            o.status.success(),
            "sbatch {args:?} failed: {}\n{}",
            String::from_utf8_lossy(&o.stderr),
            self.logs()
        );
        // `--parsable` prints `id` or `id;cluster`.
        let out = String::from_utf8_lossy(&o.stdout);
        let id = out.trim().split(';').next().unwrap_or_default().to_string();
        assert!(
            !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()),
            "sbatch printed no job id: {out:?}"
        );
        id
    }

    /// Each job (or array task) that `scontrol show job` lists for `job`, as its fields
    /// (`JobState`, `Reason`, `Restarts`, ...). An array's id lists all its tasks.
    pub fn jobs(&self, job: &str) -> Vec<std::collections::BTreeMap<String, String>> {
        self.ok("scontrol", &["show", "job", "--oneliner", job])
            .lines()
            .map(|line| {
                line.split_whitespace()
                    .filter_map(|f| f.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect()
            })
            .collect()
    }

    /// Poll `until` every [`POLL`] until it gives a value; panic after `limit` with what was
    /// awaited, the last thing `until` said, and the daemons' logs.
    pub fn wait<T>(
        &self,
        what: &str,
        limit: Duration,
        mut until: impl FnMut() -> Result<T, String>,
    ) -> T {
        let deadline = Instant::now() + limit;
        loop {
            match until() {
                Ok(value) => return value,
                Err(last) if Instant::now() > deadline => {
                    panic!("waited {limit:?} for {what}; last: {last}\n{}", self.logs())
                }
                Err(_) => std::thread::sleep(POLL),
            }
        }
    }

    /// The end of each daemon's log, for a failure's message.
    pub fn logs(&self) -> String {
        let mut out = String::new();
        for name in DAEMONS {
            let text = std::fs::read_to_string(self.log_path(name)).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            let tail = &lines[lines.len().saturating_sub(30)..];
            out += &format!(
                "--- {name} (last {} lines)\n{}\n",
                tail.len(),
                tail.join("\n")
            );
        }
        out
    }

    fn log_path(&self, name: &str) -> PathBuf {
        self.dir.path().join("log").join(format!("{name}.log"))
    }

    /// The processes still holding this cluster's `slurm.conf` in their environment: the
    /// daemons, the job step daemons and the jobs, and nothing of anyone else's.
    fn own_processes(&self) -> Vec<u32> {
        let mut needle = b"SLURM_CONF=".to_vec();
        needle.extend_from_slice(self.conf.as_os_str().as_encoded_bytes());
        let me = std::process::id();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&pid| pid != me)
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == needle))
            })
            .collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let controller_up = self
            .daemons
            .get_mut(1)
            .and_then(Option::as_mut)
            .is_some_and(|c| matches!(c.try_wait(), Ok(None)));
        if controller_up {
            // Cancel every job first: slurmd leaves running jobs behind when it stops.
            let _ = self.run_within("scancel", &["--user=root"], STOP_TIMEOUT);
            let deadline = Instant::now() + STOP_TIMEOUT;
            while Instant::now() < deadline {
                match self.run_within("squeue", &["-h", "-o", "%i"], STOP_TIMEOUT) {
                    Ok(o) if o.status.success() && !o.stdout.is_empty() => std::thread::sleep(POLL),
                    _ => break,
                }
            }
        }
        // Each daemon told to stop (SIGTERM: each ends cleanly on it), the node first and
        // munge last, and killed if it has not within the time. Not `munged --stop`: it
        // waits for the process to vanish, and ours stays a zombie until we reap it.
        let deadline = Instant::now() + STOP_TIMEOUT;
        for mut child in self.daemons.iter_mut().rev().filter_map(Option::take) {
            signal("-TERM", child.id());
            while matches!(child.try_wait(), Ok(None)) && Instant::now() < deadline {
                std::thread::sleep(POLL);
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        // Whatever is left of the cluster's (a step daemon, a job), by process id.
        for pid in self.own_processes() {
            signal("-KILL", pid);
        }
        // `dir` goes after this, with everything in it.
    }
}

/// Send a signal to one process, by its id (with procps' `kill`: std has only SIGKILL, for
/// its own children).
fn signal(which: &str, pid: u32) {
    let _ = Command::new("kill")
        .args([which, &pid.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// The files a cluster starts from, written under its folder.
struct Layout {
    conf: PathBuf,
    munge_key: PathBuf,
    munge_socket: PathBuf,
    seed: PathBuf,
    run: PathBuf,
}

impl Layout {
    fn make(root: &Path) -> std::io::Result<Layout> {
        let mode =
            |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m));
        // munged refuses a socket in a folder others cannot enter, and a key that others can
        // read or a folder others can write.
        mode(root, 0o755)?;
        for (sub, m) in [
            ("munge", 0o700),
            ("run", 0o755),
            ("state", 0o755),
            ("spool", 0o755),
            ("log", 0o755),
        ] {
            std::fs::create_dir(root.join(sub))?;
            mode(&root.join(sub), m)?;
        }
        let munge_key = root.join("munge/munge.key");
        let mut key = vec![0u8; 1024];
        rand::Rng::fill(&mut rand::rng(), &mut key[..]);
        std::fs::File::create(&munge_key)?.write_all(&key)?;
        mode(&munge_key, 0o400)?;

        let run = root.join("run");
        let munge_socket = run.join("munge.socket");
        let [ctld_port, node_port] = free_ports()?;
        let host = short_hostname()?;
        let conf = root.join("slurm.conf");
        let state = root.join("state");
        let spool = root.join("spool");
        // slurmctld accepts to run only on the host SlurmctldHost names (its address is
        // given, so nothing is looked up); the node is 127.0.0.1 under its own name. Both
        // daemons bind that address only (NoCtldInAddrAny, NoInAddrAny). No cgroups, no
        // accounting: a container has the one, the test needs not the other. The node claims
        // 2 CPUs whatever the machine has (config_overrides), as the recipe asks 2 per task.
        // Finished jobs stay listed for an hour (MinJobAge), longer than any wait of the test.
        let text = format!(
            "\
ClusterName=koth-test
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={node_port}
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={socket}
CredType=cred/munge
StateSaveLocation={state}
SlurmdSpoolDir={spool}
SlurmctldPidFile={run}/slurmctld.pid
SlurmdPidFile={run}/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=3600
SlurmdParameters=config_overrides
NodeName={NODE} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=koth Nodes={NODE} Default=YES MaxTime=INFINITE State=UP
",
            socket = munge_socket.display(),
            state = state.display(),
            spool = spool.display(),
            run = run.display(),
        );
        std::fs::write(&conf, text)?;
        Ok(Layout {
            conf,
            munge_key,
            munge_socket,
            seed: root.join("munge/munged.seed"),
            run,
        })
    }
}

/// Run `command` to its end and collect its output, killing it after `limit` (then its output
/// so far, with a failed status).
fn output_within(command: &mut Command, limit: Duration) -> std::io::Result<Output> {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    // Read both pipes meanwhile, so a talkative command cannot block on a full one.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut stderr = stderr.join().unwrap_or_default();
    if Instant::now() > deadline {
        stderr.extend_from_slice(format!("\n(killed after {limit:?})").as_bytes());
    }
    Ok(Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr,
    })
}

/// Two TCP ports free on 127.0.0.1 a moment ago (bound, read, released).
fn free_ports() -> std::io::Result<[u16; 2]> {
    let a = std::net::TcpListener::bind("127.0.0.1:0")?;
    let b = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok([a.local_addr()?.port(), b.local_addr()?.port()])
}

/// This host's name up to its first dot, as slurmctld compares it with SlurmctldHost.
fn short_hostname() -> std::io::Result<String> {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname")?;
    Ok(name
        .trim()
        .split('.')
        .next()
        .unwrap_or_default()
        .to_string())
}

/// Whether this process runs as root (its effective user id is 0).
fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().nth(1).map(|e| e == "0"))
            .unwrap_or(false)
    })
}

/// A program on PATH, or in the sbin folders where Debian puts the daemons (which a user's
/// PATH may lack).
fn program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/local/sbin"].map(PathBuf::from))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}
