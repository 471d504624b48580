//! A contest whose runs play on Slurm (`koth contest init --slurm-shards N`), on the real
//! one-node cluster the shard recipe's test starts: `koth serve` submits each run as a job
//! array of shards with the contest's store, waits for it, merges the shards into the run's
//! archive, and the leaderboard, the runs' counts and the exported archive are what a run on
//! the server's own workers gives (the export verifies, every match re-played).

#[path = "serve_support/mod.rs"]
mod serve_support;
#[allow(dead_code)]
#[path = "resume_shards/slurm_cluster.rs"]
mod slurm_cluster;

use serve_support::{author, contest, koth, Server};
use slurm_cluster::Cluster;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A contest in `tmp` made with these `koth contest init` options, with its authors alice
/// and bob: the folder and their tokens.
fn with_authors(tmp: &Path, opts: &[&str]) -> (PathBuf, String, String) {
    let dir = contest(tmp, opts);
    let (alice, bob) = (author(&dir, "alice"), author(&dir, "bob"));
    (dir, alice, bob)
}

/// `koth serve DIR` whose runs go to `cluster`, its stderr in `log`.
fn serve_on(cluster: &Cluster, dir: &Path, log: &Path) -> Server {
    Server::start_env(dir, log, &[], &[("SLURM_CONF", cluster.conf().as_os_str())])
}

/// The Slurm jobs a server's stderr says it took its runs up on, in order.
fn jobs_in(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split("Slurm job ").nth(1)?.split(',').next())
        .map(str::to_string)
        .collect()
}

/// Wait until the server logging to `log` names the Slurm job of its run; the job.
fn first_job(cluster: &Cluster, log: &Path, what: &str) -> String {
    cluster.wait(what, Duration::from_secs(120), || {
        jobs_in(log)
            .into_iter()
            .next()
            .ok_or_else(|| std::fs::read_to_string(log).unwrap_or_default())
    })
}

#[test]
#[cfg_attr(
    koth_skip_slurm,
    ignore = "SKIPPED: a_contest_on_slurm_plays_each_run_as_a_job_array: Slurm unavailable (see target/koth-skip-slurm)"
)]
fn a_contest_on_slurm_plays_each_run_as_a_job_array() {
    let cluster = match Cluster::start() {
        Ok(cluster) => cluster,
        Err(why) => {
            println!("SKIPPED: a_contest_on_slurm_plays_each_run_as_a_job_array: Slurm cannot start here: {why}");
            eprintln!("SKIPPED: a_contest_on_slurm_plays_each_run_as_a_job_array: Slurm cannot start here: {why}");
            return;
        }
    };
    let tmp = tempfile::tempdir().unwrap();
    let (dir, alice, bob) = with_authors(
        tmp.path(),
        &["--rounds", "2", "--seed", "5", "--slurm-shards", "3"],
    );
    let config = std::fs::read_to_string(dir.join("contest.json")).unwrap();
    assert!(config.contains("\"slurm\""), "{config}");
    let stderr = tmp.path().join("stderr");
    let server = serve_on(&cluster, &dir, &stderr);
    server.upload_seed_bots(&[("tax", &alice, "taxman"), ("law", &bob, "lawyer")]);
    let said = || std::fs::read_to_string(&stderr).unwrap_or_default();
    let first = server.settle(1);
    server.upload_seed_bots(&[("rnd", &bob, "random")]);
    let s = server.settle(2);
    let runs = server.json("/api/runs");
    let runs = runs.as_array().unwrap();
    assert!(
        runs.iter().all(|r| r["state"] == "done"),
        "{runs:?}\n{}\n{}",
        said(),
        cluster.logs()
    );
    // The newest run: 3 bots, 2 rounds, 12 games, of which tax and law's 4 come from the
    // store the first run's shards filled.
    let newest = &runs[0];
    assert_eq!(newest["id"], s["latest_done"], "{runs:?}");
    assert_eq!(newest["total"], 12, "{newest}");
    assert_eq!(newest["played"], 8, "{newest}");
    assert_eq!(newest["reused"], 4, "{newest}");
    assert_ne!(first["latest_done"], s["latest_done"]);
    let board = server.json("/api/leaderboard");
    assert_eq!(board["bots"].as_array().unwrap().len(), 3, "{board}");
    // Both runs were job arrays on the cluster, every task of them completed there.
    let jobs = jobs_in(&stderr);
    assert_eq!(jobs.len(), 2, "{}", said());
    for job in &jobs {
        let tasks = cluster.jobs(job);
        assert_eq!(tasks.len(), 3, "job {job}: {tasks:?}");
        for t in &tasks {
            assert_eq!(
                t.get("JobState").map(String::as_str),
                Some("COMPLETED"),
                "{t:?}"
            );
        }
    }
    // Each run's Slurm folder (bots, script, task logs, shards) went once its archive was
    // written; the archive is an ordinary one.
    let slurm = dir.join("slurm");
    assert_eq!(
        std::fs::read_dir(&slurm).map_or(0, |d| d.count()),
        0,
        "{}",
        slurm.display()
    );
    let export = tmp.path().join("export");
    koth(&[
        "contest",
        "export",
        dir.to_str().unwrap(),
        "--out",
        export.to_str().unwrap(),
    ]);
    let verified = koth(&[
        "verify",
        export.to_str().unwrap(),
        "--bots",
        export.join("bots").to_str().unwrap(),
        "--all",
    ]);
    assert!(verified.contains("12 of 12 matches"), "{verified}");
    // The same ladder on the server's own workers gives the same leaderboard.
    let local_tmp = tempfile::tempdir().unwrap();
    let (local, a, b) = with_authors(local_tmp.path(), &["--rounds", "2", "--seed", "5"]);
    let local_server = Server::start(&local, &local_tmp.path().join("stderr"));
    local_server.upload_seed_bots(&[
        ("tax", a.as_str(), "taxman"),
        ("law", b.as_str(), "lawyer"),
        ("rnd", b.as_str(), "random"),
    ]);
    local_server.settle(1);
    let local_board = local_server.json("/api/leaderboard");
    assert_eq!(local_board["bots"], board["bots"]);
    drop(server);
    // A job Slurm refuses (a partition it does not have) fails the run with sbatch's reason.
    let bad_tmp = tempfile::tempdir().unwrap();
    let (bad, a, b) = with_authors(
        bad_tmp.path(),
        &[
            "--rounds",
            "1",
            "--slurm-shards",
            "2",
            "--sbatch-arg=--partition=nowhere",
        ],
    );
    let bad_server = serve_on(&cluster, &bad, &bad_tmp.path().join("stderr"));
    bad_server.upload_seed_bots(&[("tax", a.as_str(), "taxman"), ("law", b.as_str(), "lawyer")]);
    bad_server.settle(1);
    let runs = bad_server.json("/api/runs");
    let run = &runs[0];
    assert_eq!(run["state"], "failed", "{runs}");
    let error = run["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("sbatch") && error.contains("nowhere"),
        "{error}"
    );
    // A failed run keeps its script (and logs) for a look, not its bots or shards.
    let failed_run = bad.join(format!("slurm/{}", run["id"]));
    assert!(
        failed_run.join("shards.sbatch").is_file(),
        "{}",
        failed_run.display()
    );
    assert!(!failed_run.join("bots").exists());
    drop(bad_server);
    // A server killed while its job waits in Slurm's queue (held back a minute by `--begin`) waits
    // for that job when it starts again, rather than submit the run a second time.
    let kill_tmp = tempfile::tempdir().unwrap();
    let (killed, a, b) = with_authors(
        kill_tmp.path(),
        &[
            "--rounds",
            "2",
            "--slurm-shards",
            "2",
            "--sbatch-arg=--begin=now+60",
        ],
    );
    let first_log = kill_tmp.path().join("stderr1");
    let first = serve_on(&cluster, &killed, &first_log);
    first.upload_seed_bots(&[("tax", a.as_str(), "taxman"), ("law", b.as_str(), "lawyer")]);
    let job = first_job(&cluster, &first_log, "the run's job to be submitted");
    first.kill();
    let second_log = kill_tmp.path().join("stderr2");
    let second = serve_on(&cluster, &killed, &second_log);
    let waited = first_job(
        &cluster,
        &second_log,
        "the restarted server to take the job up",
    );
    assert_eq!(waited, job, "the same job, waited for");
    // The server waits for it: let it start now rather than at its begin time.
    cluster.ok(
        "scontrol",
        &["update", &format!("JobId={job}"), "StartTime=now"],
    );
    second.settle(1);
    let runs = second.json("/api/runs");
    assert_eq!(runs[0]["state"], "done", "{runs}");
    assert_eq!(runs[0]["played"], 4, "{runs}");
    assert_eq!(
        jobs_in(&second_log),
        vec![job.clone()],
        "the same job, waited for"
    );
    let tasks = cluster.jobs(&job);
    assert_eq!(tasks.len(), 2, "{tasks:?}");
    drop(second);
    // A referee's game on Slurm: each task is `koth play REFEREE ... --shard`, with the
    // contest's referee by its path; the export verifies, every match re-played.
    let ref_tmp = tempfile::tempdir().unwrap();
    let referee = koth_tests::wasm("euchre_referee");
    let ref_dir = ref_tmp.path().join("contest");
    koth(&[
        "contest",
        "init",
        ref_dir.to_str().unwrap(),
        "--referee",
        referee.to_str().unwrap(),
        "--opt",
        "target=5",
        "--rounds",
        "1",
        "--seed",
        "3",
        "--no-python",
        "--jobs",
        "2",
        "--slurm-shards",
        "2",
    ]);
    let a = author(&ref_dir, "alice");
    let ref_log = ref_tmp.path().join("stderr");
    let ref_server = serve_on(&cluster, &ref_dir, &ref_log);
    ref_server.upload_seed_bots(&[
        ("random_8020", a.as_str(), "random_8020"),
        ("marius", a.as_str(), "marius"),
        ("card_counter", a.as_str(), "card_counter"),
    ]);
    ref_server.settle(1);
    let runs = ref_server.json("/api/runs");
    assert!(
        runs.as_array()
            .unwrap()
            .iter()
            .all(|r| r["state"] == "done"),
        "{runs}\n{}",
        std::fs::read_to_string(&ref_log).unwrap_or_default()
    );
    let script_jobs = jobs_in(&ref_log);
    assert!(!script_jobs.is_empty(), "the runs went to Slurm");
    let export = ref_tmp.path().join("export");
    koth(&[
        "contest",
        "export",
        ref_dir.to_str().unwrap(),
        "--out",
        export.to_str().unwrap(),
    ]);
    let verified = koth(&[
        "verify",
        export.to_str().unwrap(),
        "--bots",
        export.join("bots").to_str().unwrap(),
        "--all",
    ]);
    let total = runs[0]["total"].as_u64().unwrap();
    assert!(
        verified.contains(&format!("{total} of {total} matches")),
        "{verified}"
    );
    drop(ref_server);
    drop(cluster);
}
