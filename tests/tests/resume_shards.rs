//! Results people can trust, tested through the `koth` command as a host would use it:
//!
//! - a run killed with `kill -9` at random moments and resumed with `--resume` writes the
//!   archive an uninterrupted run writes, byte for byte;
//! - 4 shards (`--shard K/4`) played in parallel by GNU `parallel` and joined by `koth merge`
//!   write that same archive, for every game and through the recipes in `deploy/` (GNU
//!   parallel with this machine as its host; Slurm's array scripts on a real one-node Slurm
//!   that the test starts, and, needing no Slurm, with Slurm's variables set by hand);
//!   merge refuses missing, repeated, unfinished or foreign shards;
//! - `koth verify` confirms an archive, and fails on one edited by hand (the receipt) or forged
//!   with a recomputed receipt (the re-played matches).

#[path = "resume_shards/slurm_cluster.rs"]
mod slurm_cluster;

use koth_tests::{koth_bin, read_tree, wasm};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const COUP_BOTS: [&str; 4] = ["calculator", "taxman", "random", "bandit"];
const HEIST_BOTS: [&str; 4] = ["lurker", "gun_heck", "snitcher_king", "heist_master"];
const EUCHRE_BOTS: [&str; 3] = ["random_8020", "marius", "card_counter"];

/// A game's command line: the game, its bots, its options.
struct Run {
    game: &'static str,
    bots: Vec<PathBuf>,
    options: Vec<&'static str>,
}

impl Run {
    fn coup(rounds: &'static str) -> Run {
        Run {
            game: "coup",
            bots: COUP_BOTS.iter().map(|b| wasm(b)).collect(),
            options: vec!["--rounds", rounds],
        }
    }

    fn bank_heist() -> Run {
        Run {
            game: "bank-heist",
            bots: HEIST_BOTS.iter().map(|b| wasm(b)).collect(),
            options: vec!["--tournaments", "6", "--games", "150"],
        }
    }

    fn euchre() -> Run {
        Run {
            game: "euchre",
            bots: EUCHRE_BOTS.iter().map(|b| wasm(b)).collect(),
            options: vec!["--games", "8"],
        }
    }

    /// A game whose referee is a plugin (`koth play`): the hostile test referee's honest game
    /// (2 seats, ordered pairs), a Rust component, with the Coup bots as its players.
    fn plugin() -> Run {
        let mut bots = vec![wasm("hostile_referee")];
        bots.extend(COUP_BOTS.iter().map(|b| wasm(b)));
        Run {
            game: "play",
            bots,
            options: vec!["--rounds", "40"],
        }
    }

    /// The command writing into `out`, with `extra` options.
    fn command(&self, out: &Path, extra: &[&str]) -> Command {
        let mut c = Command::new(koth_bin());
        c.arg(self.game)
            .args(&self.bots)
            .args(&self.options)
            .args(["--seed", "5", "--jobs", "2", "--no-cache", "--out"])
            .arg(out)
            .args(extra)
            .stdin(Stdio::null());
        c
    }

    fn run(&self, out: &Path, extra: &[&str]) -> Output {
        let o = self.command(out, extra).output().expect("run koth");
        assert!(
            o.status.success(),
            "koth {} {extra:?} failed: {}",
            self.game,
            String::from_utf8_lossy(&o.stderr)
        );
        o
    }
}

/// Assert two archives are identical, naming the files that differ (not dumping bytes).
fn assert_same_archive(got: &Path, expected: &BTreeMap<String, Vec<u8>>, what: &str) {
    let got = read_tree(got);
    let differ: Vec<&String> = got
        .keys()
        .chain(expected.keys())
        .filter(|k| got.get(*k) != expected.get(*k))
        .collect();
    assert!(
        differ.is_empty(),
        "{what}: {} files differ, such as {:?}",
        differ.len(),
        &differ[..differ.len().min(8)]
    );
}

fn koth(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Output {
    Command::new(koth_bin())
        .args(args.iter().map(|a| a.as_ref()))
        .stdin(Stdio::null())
        .output()
        .expect("run koth")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Start `run` into `out` and kill it with SIGKILL after `after`; true if it was still
/// running (so the kill cut it short).
fn kill_after(run: &Run, out: &Path, extra: &[&str], after: Duration) -> bool {
    let mut child = run
        .command(out, extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start koth");
    std::thread::sleep(after);
    let running = child.try_wait().expect("poll koth").is_none();
    // Child::kill sends SIGKILL on Unix: no chance to flush or clean up.
    let _ = child.kill();
    let _ = child.wait();
    running
}

/// Kill a run at seeded random moments, resuming (and killing the resume) until it finishes;
/// the archive must be the uninterrupted run's.
fn killed_and_resumed_equals_uninterrupted(run: &Run, kills: usize, seed: u64) {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let started = Instant::now();
    run.run(&whole, &[]);
    let duration = started.elapsed();
    let expected = read_tree(&whole);
    assert!(
        !expected.contains_key("journal.jsonl"),
        "a finished run keeps no journal"
    );

    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for k in 0..kills {
        let out = tmp.path().join(format!("killed-{k}"));
        // A random moment of the run (the start included), then kill the resume once too.
        let first = duration.mul_f64(rng.random_range(0.0..0.9));
        let cut = kill_after(run, &out, &[], first);
        let second = duration.mul_f64(rng.random_range(0.0..0.5));
        let cut_again = cut && kill_after(run, &out, &["--resume"], second);
        let o = run.run(&out, &["--resume"]);
        assert_eq!(
            read_tree(&out),
            expected,
            "{} killed after {first:?} (cut: {cut}) and {second:?} (cut: {cut_again}), then \
             resumed, differs from the uninterrupted run\n{}",
            run.game,
            text(&o)
        );
        // Resuming a finished archive plays nothing and changes nothing.
        let again = run.run(&out, &["--resume"]);
        assert!(
            text(&again).contains("nothing to resume"),
            "{}",
            text(&again)
        );
        assert_eq!(read_tree(&out), expected);
    }
}

#[test]
fn coup_killed_at_random_moments_and_resumed_writes_the_same_archive() {
    killed_and_resumed_equals_uninterrupted(&Run::coup("60"), 3, 1);
}

#[test]
fn bank_heist_killed_and_resumed_writes_the_same_archive() {
    killed_and_resumed_equals_uninterrupted(&Run::bank_heist(), 2, 2);
}

#[test]
fn euchre_killed_and_resumed_writes_the_same_archive() {
    killed_and_resumed_equals_uninterrupted(&Run::euchre(), 2, 3);
}

#[test]
fn a_plugin_game_killed_and_resumed_writes_the_same_archive() {
    killed_and_resumed_equals_uninterrupted(&Run::plugin(), 2, 4);
}

/// A run over an earlier archive writes the archive an empty folder gets, byte for byte,
/// whether the earlier one has the layout before `matches.zip` (folders of per-match files,
/// scratch trees, a symlink among them) or the container (of another run: other bots); and
/// nothing outside the folder is touched.
fn over_an_earlier_archive_equals_an_empty_folder(run: &Run) {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    run.run(&whole, &[]);
    let expected = read_tree(&whole);
    assert!(expected.contains_key("matches.zip.zst"));
    assert!(
        !expected
            .keys()
            .any(|k| k.starts_with("logs/") || k.starts_with("scratch/")),
        "per-match files on disk: {:?}",
        expected.keys().collect::<Vec<_>>()
    );

    // The layout before the container: thousands of files in per-match folders.
    let old = tmp.path().join("old");
    let outside = tmp.path().join("outside.txt");
    std::fs::write(&outside, b"keep").unwrap();
    let mut files: Vec<(String, &[u8])> = vec![
        ("results.json".into(), b"{}"),
        ("invocations.jsonl".into(), b"{}\n"),
        ("head-to-head.txt".into(), b"old"),
        ("scratch-symlinks.jsonl".into(), b"{}\n"),
        ("scratch/match-0/N/memory".into(), b"old memory"),
        ("scratch/a_b_0/a/notes".into(), b"old notes"),
    ];
    for i in 0..300 {
        files.push((format!("logs/match-{i}.log"), b"old log"));
        files.push((format!("logs/tournament-{i}.log"), b"old log"));
        files.push((format!("histories/a_b_{i}.txt"), b"old history"));
    }
    for (rel, data) in files {
        let path = old.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, data).unwrap();
    }
    std::fs::copy(whole.join("manifest.json"), old.join("manifest.json")).unwrap();
    std::fs::create_dir_all(old.join("scratch/match-1/S/empty")).unwrap();
    std::os::unix::fs::symlink(&outside, old.join("logs/match-0.log.link")).unwrap();
    std::os::unix::fs::symlink(tmp.path(), old.join("scratch/match-1/S/up")).unwrap();
    run.run(&old, &[]);
    assert_same_archive(
        &old,
        &expected,
        "over an archive of the layout before matches.zip",
    );
    assert_eq!(std::fs::read(&outside).unwrap(), b"keep");

    // The container's layout, of another run (one bot fewer).
    let other = Run {
        game: run.game,
        bots: run.bots[..run.bots.len() - 1].to_vec(),
        options: run.options.clone(),
    };
    let new = tmp.path().join("new");
    other.run(&new, &[]);
    assert_ne!(
        read_tree(&new)["matches.zip.zst"],
        expected["matches.zip.zst"]
    );
    run.run(&new, &[]);
    assert_same_archive(&new, &expected, "over another run's archive");
}

#[test]
fn a_run_over_an_earlier_archive_writes_the_one_an_empty_folder_gets() {
    for run in [
        Run::coup("2"),
        Run::bank_heist(),
        Run::euchre(),
        Run::plugin(),
    ] {
        over_an_earlier_archive_equals_an_empty_folder(&run);
    }
}

#[test]
fn a_fresh_run_refuses_to_overwrite_an_unfinished_one_and_resume_checks_the_options() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let run = Run::coup("200");
    // Wait until the journal has a few matches, then kill.
    let mut child = run
        .command(&out, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal = out.join("journal.jsonl");
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read(&journal).map_or(0, |j| j.iter().filter(|&&b| b == b'\n').count()) < 5 {
        assert!(Instant::now() < deadline, "no matches journaled");
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();

    let fresh = run.command(&out, &[]).output().unwrap();
    assert!(!fresh.status.success());
    assert!(
        text(&fresh).contains("unfinished run") && text(&fresh).contains("--resume"),
        "{}",
        text(&fresh)
    );
    let other = Run::coup("100");
    let wrong = other.command(&out, &["--resume"]).output().unwrap();
    assert!(!wrong.status.success());
    // It names what differs, with both values.
    assert!(
        text(&wrong).contains("other options") && text(&wrong).contains("rounds was 200, now 100"),
        "{}",
        text(&wrong)
    );
    let sharded = run
        .command(&out, &["--resume", "--shard", "1/2"])
        .output()
        .unwrap();
    assert!(!sharded.status.success());
    assert!(
        text(&sharded).contains("same --shard"),
        "{}",
        text(&sharded)
    );
    // Still resumable after all that.
    run.run(&out, &["--resume"]);
    assert!(out.join("results.json").is_file() && !journal.exists());
}

/// Play `run` as 4 shards with GNU parallel, merge them, and compare with one whole run.
fn four_parallel_shards_merge_into_the_single_run(run: &Run) {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    run.run(&whole, &[]);
    let shard = |k: &str| tmp.path().join(format!("shard-{k}"));
    let mut parallel = Command::new("parallel");
    parallel
        .args(["--will-cite", "--halt", "now,fail=1", "-j", "4"])
        .arg(koth_bin())
        .arg(run.game)
        .args(&run.bots)
        .args(&run.options)
        .args([
            "--seed",
            "5",
            "--jobs",
            "1",
            "--no-cache",
            "--shard",
            "{}/4",
            "--out",
        ])
        .arg(tmp.path().join("shard-{}"))
        .args([":::", "1", "2", "3", "4"])
        .stdin(Stdio::null());
    let o = parallel.output().expect("run GNU parallel");
    assert!(o.status.success(), "parallel failed: {}", text(&o));
    for k in ["1", "2", "3", "4"] {
        assert!(
            shard(k).join("journal.jsonl").is_file(),
            "shard {k} wrote no journal"
        );
        assert!(
            !shard(k).join("results.json").exists(),
            "a shard writes no results"
        );
    }
    let merged = tmp.path().join("merged");
    let o = koth(&[
        &"merge",
        &shard("3"),
        &shard("1"),
        &shard("4"),
        &shard("2"),
        &"--out",
        &merged,
    ]);
    assert!(o.status.success(), "merge failed: {}", text(&o));
    assert_same_archive(
        &merged,
        &read_tree(&whole),
        &format!("{}: 4 merged shards against the single run", run.game),
    );
}

/// `deploy/<path>` in this repository.
fn recipe(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../deploy")
        .join(path)
}

/// The Coup test bots as `bots/*.wasm` expands them (sorted: the order fixes the schedule).
fn globbed_bots() -> Vec<String> {
    let mut bots = COUP_BOTS.map(|b| format!("bots/{b}.wasm")).to_vec();
    bots.sort();
    bots
}

/// A folder holding the Coup test bots under `bots/`, as the deploy recipes expect, and the
/// single run's archive of them (seed 3, 8 rounds) in `whole/`.
fn recipe_folder() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("bots")).unwrap();
    for b in COUP_BOTS {
        std::fs::copy(wasm(b), tmp.path().join(format!("bots/{b}.wasm"))).unwrap();
    }
    let o = Command::new(koth_bin())
        .current_dir(tmp.path())
        .args([
            "coup",
            "--rounds",
            "8",
            "--seed",
            "3",
            "--no-cache",
            "--out",
            "whole",
        ])
        .args(globbed_bots())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    tmp
}

#[test]
#[cfg_attr(
    koth_no_gnu_parallel,
    ignore = "GNU parallel is not installed (apt-get install parallel; scripts/setup does it)"
)]
fn the_gnu_parallel_recipe_plays_4_shards_and_merges_them_into_the_single_run() {
    let tmp = recipe_folder();
    // `:` is this machine: the recipe's ssh hosts, minus the ssh.
    let o = Command::new("bash")
        .current_dir(tmp.path())
        .env("KOTH", koth_bin())
        .arg(recipe("parallel/run-shards.sh"))
        .args(["4", ":", "merged", "coup"])
        .args(globbed_bots())
        .args(["--", "--rounds", "8", "--seed", "3", "--no-cache"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "run-shards.sh failed: {}", text(&o));
    assert_same_archive(
        &tmp.path().join("merged"),
        &read_tree(&tmp.path().join("whole")),
        "deploy/parallel/run-shards.sh",
    );
}

/// Run `deploy/slurm/shards.sbatch` with bash in `folder`, with the variables Slurm would set
/// for array task `task` of an array of `count` and `extra` settings.
fn shards_sbatch_by_hand(folder: &Path, task: &str, count: &str, extra: &[(&str, &str)]) -> Output {
    Command::new("bash")
        .current_dir(folder)
        .env("KOTH", koth_bin())
        .env("KOTH_ARGS", "--rounds 8 --seed 3 --no-cache")
        .env("SLURM_ARRAY_TASK_ID", task)
        .env("SLURM_ARRAY_TASK_COUNT", count)
        .env("SLURM_CPUS_PER_TASK", "1")
        .envs(extra.iter().copied())
        .arg(recipe("slurm/shards.sbatch"))
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The Slurm scripts without a Slurm (which the next test needs, and which may be missing):
/// bash runs them with the variables Slurm sets, the array's tasks in a scrambled order, one
/// of them run again as a requeue would, and one resubmitted alone as `SHARDS=4 sbatch
/// --array=3` runs it (Slurm then says the array has 1 task).
#[test]
fn the_slurm_scripts_with_slurms_variables_set_by_hand_give_the_single_run() {
    let tmp = recipe_folder();
    for k in ["3", "1", "4", "2", "3"] {
        let o = shards_sbatch_by_hand(tmp.path(), k, "4", &[]);
        assert!(o.status.success(), "shard {k}: {}", text(&o));
    }
    // Shard 3 lost and resubmitted alone: without SHARDS it is refused, saying why...
    std::fs::remove_dir_all(tmp.path().join("results/shard-3")).unwrap();
    let o = shards_sbatch_by_hand(tmp.path(), "3", "1", &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("needs SHARDS"), "{}", text(&o));
    // ...and with it, plays shard 3/4 again.
    let o = shards_sbatch_by_hand(tmp.path(), "3", "1", &[("SHARDS", "4")]);
    assert!(o.status.success(), "shard 3 alone: {}", text(&o));
    let o = Command::new("bash")
        .current_dir(tmp.path())
        .env("KOTH", koth_bin())
        .arg(recipe("slurm/merge.sbatch"))
        .output()
        .unwrap();
    assert!(o.status.success(), "merge.sbatch: {}", text(&o));
    assert_same_archive(
        &tmp.path().join("results/archive"),
        &read_tree(&tmp.path().join("whole")),
        "deploy/slurm",
    );
}

/// The test below, by the name its skips print.
const REAL_SLURM: &str = "the_slurm_recipe_on_a_real_one_node_cluster_gives_the_single_run";
/// How long a real Slurm may take over a job (4 shards of 96 Coup games, and a merge).
const SLURM_JOB_TIMEOUT: Duration = Duration::from_secs(300);

/// The recipe on a real Slurm, as a user runs it: a one-node cluster on this machine (munged,
/// slurmctld, slurmd), `sbatch --parsable shards.sbatch` for the array of 4 and `sbatch
/// --dependency=afterok:ID merge.sbatch`, one task requeued while it runs (as a lost node's
/// would be), then one shard lost and resubmitted alone with `SHARDS=4 sbatch --array=2`. Each
/// time the merged archive is the single run's, byte for byte.
#[test]
#[cfg_attr(
    koth_skip_slurm,
    ignore = "SKIPPED: the_slurm_recipe_on_a_real_one_node_cluster_gives_the_single_run: Slurm unavailable (see target/koth-skip-slurm)"
)]
fn the_slurm_recipe_on_a_real_one_node_cluster_gives_the_single_run() {
    let tmp = recipe_folder();
    let started = Instant::now();
    let cluster = match slurm_cluster::Cluster::start() {
        Ok(cluster) => cluster,
        Err(why) => {
            println!("SKIPPED: {REAL_SLURM}: Slurm cannot start here: {why}");
            eprintln!("SKIPPED: {REAL_SLURM}: Slurm cannot start here: {why}");
            return;
        }
    };
    let folder = tmp.path();
    let koth = koth_bin();
    // The tasks share a compiled-code cache in the run's folder, as a cluster's shared
    // filesystem allows: the first compiles the bots, the others load them (the cache is no
    // part of the manifest, so the single run's --no-cache archive is still the one to match).
    let koth_args = format!(
        "--rounds 8 --seed 3 --cache-dir {}",
        folder.join("cache").display()
    );
    let env = [
        ("KOTH", koth.as_os_str()),
        ("KOTH_ARGS", koth_args.as_ref()),
    ];
    let shards_script = recipe("slurm/shards.sbatch");
    let merge_script = recipe("slurm/merge.sbatch");
    let [shards_script, merge_script] =
        [&shards_script, &merge_script].map(|p| p.to_str().unwrap());

    let up = started.elapsed();
    let shards = cluster.sbatch(folder, &env, &[shards_script]);
    let merge = cluster.sbatch(
        folder,
        &env,
        &[&format!("--dependency=afterok:{shards}"), merge_script],
    );
    // The first task to run is requeued, as Slurm requeues the tasks of a node it lost
    // (the recipe's --requeue allows it): killed, then run again from the start.
    let task = cluster.wait("a task of the array to run", SLURM_JOB_TIMEOUT, || {
        let running = cluster.ok("squeue", &["-h", "-j", &shards, "-t", "R", "-o", "%i"]);
        running
            .lines()
            .next()
            .map(str::to_string)
            .ok_or_else(|| cluster.ok("squeue", &[]))
    });
    cluster.ok("scontrol", &["requeue", &task]);
    // Slurm holds a requeued job back for a while (its begin time): let it go at once.
    cluster.wait("the requeued task to be held", SLURM_JOB_TIMEOUT, || {
        let job = cluster.jobs(&task).into_iter().next().unwrap_or_default();
        match (job.get("JobState"), job.get("Reason")) {
            (Some(s), Some(r)) if s == "PENDING" && r == "BeginTime" => Ok(()),
            _ => Err(format!("{job:?}")),
        }
    });
    cluster.ok(
        "scontrol",
        &["update", &format!("JobId={task}"), "StartTime=now"],
    );
    slurm_job_completes(&cluster, &merge, &shards, folder);
    let first = started.elapsed() - up;
    let tasks = cluster.jobs(&shards);
    let restarts: Vec<(String, String, String)> = tasks
        .iter()
        .map(|t| {
            let field = |k: &str| t.get(k).cloned().unwrap_or_default();
            (field("ArrayTaskId"), field("JobState"), field("Restarts"))
        })
        .collect();
    assert_eq!(restarts.len(), 4, "the array's tasks: {restarts:?}");
    for (id, state, restarted) in &restarts {
        let requeued = task.ends_with(&format!("_{id}"));
        assert!(
            state == "COMPLETED" && restarted == if requeued { "1" } else { "0" },
            "task {id}: {state}, {restarted} restarts (requeued: {task}): {restarts:?}"
        );
    }
    let whole = read_tree(&folder.join("whole"));
    assert_same_archive(
        &folder.join("results/archive"),
        &whole,
        "deploy/slurm on a real Slurm, one task requeued",
    );

    // Shard 2 lost with its disk: resubmitted alone (Slurm then counts an array of 1 task),
    // with SHARDS, and merged again.
    for gone in ["results/shard-2", "results/archive"] {
        std::fs::remove_dir_all(folder.join(gone)).unwrap();
    }
    let mut env_again = env.to_vec();
    env_again.push(("SHARDS", "4".as_ref()));
    let again = cluster.sbatch(folder, &env_again, &["--array=2", shards_script]);
    let merge = cluster.sbatch(
        folder,
        &env,
        &[&format!("--dependency=afterok:{again}"), merge_script],
    );
    slurm_job_completes(&cluster, &merge, &again, folder);
    assert_same_archive(
        &folder.join("results/archive"),
        &whole,
        "deploy/slurm on a real Slurm, shard 2 resubmitted alone",
    );
    // Where a slow run's time went (figures for the guide; not asserted).
    eprintln!(
        "real Slurm: cluster up in {up:.1?}, the array of 4 (one task requeued) and its merge \
         in {first:.1?}, shard 2 resubmitted and merged in {:.1?}",
        started.elapsed() - up - first
    );
}

/// Wait until the job `job` completes; panic, with the recipes' logs in `folder` and the
/// daemons', if it or a task of `array` (which it depends on) ends otherwise.
fn slurm_job_completes(cluster: &slurm_cluster::Cluster, job: &str, array: &str, folder: &Path) {
    let logs = || {
        let mut out = String::new();
        let mut logs: Vec<PathBuf> = std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "log"))
            .collect();
        logs.sort();
        for log in logs {
            out += &format!(
                "--- {}\n{}\n",
                log.display(),
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        }
        out
    };
    let what = format!("job {job} to complete");
    cluster.wait(&what, SLURM_JOB_TIMEOUT, || {
        for (id, jobs) in [(array, cluster.jobs(array)), (job, cluster.jobs(job))] {
            for j in jobs {
                let state = j.get("JobState").map_or("", String::as_str);
                let ended = !matches!(
                    state,
                    "PENDING" | "RUNNING" | "CONFIGURING" | "COMPLETING" | "REQUEUED" | "COMPLETED"
                );
                assert!(
                    !ended,
                    "job {id} ended {state}: {j:?}\n{}\n{}",
                    logs(),
                    cluster.logs()
                );
            }
        }
        let state = cluster.jobs(job).into_iter().next().unwrap_or_default();
        match state.get("JobState") {
            Some(s) if s == "COMPLETED" => Ok(()),
            _ => Err(format!("{state:?}")),
        }
    });
}

#[test]
#[cfg_attr(
    koth_no_gnu_parallel,
    ignore = "GNU parallel is not installed (apt-get install parallel; scripts/setup does it)"
)]
fn every_games_4_shards_run_by_gnu_parallel_merge_into_the_single_run() {
    four_parallel_shards_merge_into_the_single_run(&Run::coup("12"));
    four_parallel_shards_merge_into_the_single_run(&Run::bank_heist());
    four_parallel_shards_merge_into_the_single_run(&Run::euchre());
    four_parallel_shards_merge_into_the_single_run(&Run::plugin());
}

#[test]
fn merge_refuses_missing_repeated_unfinished_and_foreign_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let run = Run::coup("6");
    let dir = |name: &str| tmp.path().join(name);
    for k in 1..=3 {
        run.run(&dir(&format!("s{k}")), &["--shard", &format!("{k}/3")]);
    }
    let merge = |dirs: &[&str]| {
        let mut c = Command::new(koth_bin());
        c.arg("merge");
        for d in dirs {
            c.arg(dir(d));
        }
        c.arg("--out").arg(dir("merged")).stdin(Stdio::null());
        let o = c.output().unwrap();
        assert!(!o.status.success(), "merge of {dirs:?} should fail");
        text(&o)
    };
    assert!(merge(&["s1", "s3"]).contains("2/3 missing"));
    assert!(merge(&["s1", "s1", "s2"]).contains("both shard 1/3"));
    // A shard of a run with other options.
    Run::coup("7").run(&dir("other"), &["--shard", "2/3"]);
    let e = merge(&["s1", "other", "s3"]);
    assert!(e.contains("different runs") && e.contains("options"), "{e}");
    // A shard cut short by a crash: its last line lost.
    let journal = dir("s2").join("journal.jsonl");
    let mut lines: Vec<String> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    lines.pop();
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    let e = merge(&["s1", "s2", "s3"]);
    assert!(e.contains("--resume") && e.contains("shard 2/3"), "{e}");
    // A whole run is not a shard.
    run.run(&dir("whole"), &[]);
    assert!(merge(&["whole"]).contains("journal"));
    assert!(!dir("merged").exists(), "a failed merge writes nothing");
}

/// The matches of an archive's results.json.
fn results(archive: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(archive.join("results.json")).unwrap()).unwrap()
}

fn verify(archive: &Path, extra: &[&str]) -> Output {
    let mut c = Command::new(koth_bin());
    c.arg("verify")
        .arg(archive)
        .arg("--bots")
        .arg(koth_tests::bots_dir())
        .args(["--no-cache", "--jobs", "2"])
        .args(extra)
        .stdin(Stdio::null());
    c.output().unwrap()
}

/// `--rules original` is recorded in the manifest (the referee's option `rules`), and `koth
/// verify` re-plays the archive under those rules (under the text's, every tournament would
/// differ); a text run's manifest records the default, `text`.
#[test]
fn bank_heist_s_rules_are_recorded_and_verified() {
    let tmp = tempfile::tempdir().unwrap();
    let (original, text_run) = (tmp.path().join("original"), tmp.path().join("text"));
    let heist = Run::bank_heist();
    heist.run(&original, &["--rules", "original"]);
    heist.run(&text_run, &[]);
    let manifest = |dir: &Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap()
    };
    assert_eq!(
        manifest(&original)["options"]["options"]["rules"],
        "original"
    );
    assert_eq!(manifest(&text_run)["options"]["options"]["rules"], "text");
    assert_ne!(results(&original)["bots"], results(&text_run)["bots"]);
    let o = verify(&original, &["--all"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("written again identically"),
        "{}",
        text(&o)
    );
    let bad = heist
        .command(&tmp.path().join("bad"), &["--rules", "prose"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(text(&bad).contains("--rules"), "{}", text(&bad));
}

#[test]
fn verify_confirms_an_archive_and_catches_edits_and_forgeries() {
    let tmp = tempfile::tempdir().unwrap();
    let archive = tmp.path().join("run");
    Run::coup("5").run(&archive, &[]);
    let pristine: BTreeMap<String, Vec<u8>> = read_tree(&archive);
    // The archive's files (not the container's entries, which `read_tree` lists too).
    let restore = || {
        for (rel, data) in pristine.iter().filter(|(k, _)| !k.contains(".zip.zst/")) {
            std::fs::write(archive.join(rel), data).unwrap();
        }
    };

    let o = verify(&archive, &["--sample", "10"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("10 of 60 matches re-played"),
        "{}",
        text(&o)
    );
    let o = verify(&archive, &["--all"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("written again identically"),
        "{}",
        text(&o)
    );

    // Edited by hand: a match's winner swapped. The receipt no longer matches.
    let mut r = results(&archive);
    let scores = r["matches"][7]["scores"].as_array().unwrap().clone();
    r["matches"][7]["scores"] = serde_json::Value::Array(scores.into_iter().rev().collect());
    std::fs::write(
        archive.join("results.json"),
        serde_json::to_vec_pretty(&r).unwrap(),
    )
    .unwrap();
    let o = verify(&archive, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("receipt does not match"), "{}", text(&o));
    restore();

    // Cut by hand: a match without its record digest is not an archive koth wrote, and
    // `verify` says which file and field, rather than re-playing against an empty digest.
    let mut r = results(&archive);
    r["matches"][2]
        .as_object_mut()
        .unwrap()
        .remove("record_sha256");
    std::fs::write(
        archive.join("results.json"),
        serde_json::to_vec_pretty(&r).unwrap(),
    )
    .unwrap();
    let o = verify(&archive, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("results.json: not koth's results: missing field `record_sha256`"),
        "{}",
        text(&o)
    );
    restore();

    // Forged: a match's record digest replaced and the receipt recomputed to fit. Only
    // re-playing that match from the bots shows it.
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(archive.join("manifest.json")).unwrap()).unwrap();
    let mut r = results(&archive);
    r["matches"][3]["record_sha256"] = serde_json::Value::String("0".repeat(64));
    let matches = r["matches"].as_array().unwrap().clone();
    r["receipt"] = serde_json::Value::String(koth::tournament::receipt::receipt(
        &manifest, &r["bots"], &matches,
    ));
    std::fs::write(
        archive.join("results.json"),
        serde_json::to_vec_pretty(&r).unwrap(),
    )
    .unwrap();
    assert!(verify(&archive, &["--receipt-only"]).status.success());
    let o = verify(&archive, &["--all"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("match 3"), "{}", text(&o));
    restore();

    // A log edited by hand (the container written again with that entry changed): the
    // receipt does not cover it, re-writing the archive does, and names the entry.
    let zip = archive.join("matches.zip.zst");
    let mut entries = koth_tests::container_entries(&zip);
    let log = entries
        .iter()
        .position(|(name, _)| name.starts_with("logs/"))
        .unwrap();
    entries[log].1 = b"nothing happened\n".to_vec();
    let edited: Vec<koth::tournament::container::Entry> = entries
        .iter()
        .map(|(name, data)| koth::tournament::container::Entry::file(name.clone(), &data[..]))
        .collect();
    koth::tournament::container::write_file(&zip, &edited).unwrap();
    let o = verify(&archive, &["--all"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let named = format!("matches.zip.zst: {}: differs", entries[log].0);
    assert!(text(&o).contains(&named), "{}", text(&o));
    restore();

    // A container damaged on disk (one byte of its compressed logs flipped, the frame's
    // checksum no longer matching) is named whole.
    let mut bytes = pristine["matches.zip.zst"].clone();
    let at = bytes.len() / 3;
    bytes[at] ^= 1;
    std::fs::write(&zip, &bytes).unwrap();
    let o = verify(&archive, &["--all"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("matches.zip.zst: differs"),
        "{}",
        text(&o)
    );
    restore();

    // The same archive in koth 0.5.0's layout (`koth-results/1`: the zip and the lines not
    // compressed, the JSON indented throughout) verifies: files compare by what they hold.
    let plain = tmp.path().join("plain");
    std::fs::create_dir(&plain).unwrap();
    for (rel, data) in pristine.iter().filter(|(k, _)| !k.contains(".zip.zst/")) {
        let (rel, data) = match rel.strip_suffix(".zst") {
            Some(old) => (
                old.to_string(),
                koth::tournament::seekable::read_file(&archive.join(rel)).unwrap(),
            ),
            None => (rel.clone(), data.clone()),
        };
        let data = if rel.ends_with(".json") {
            let mut v: serde_json::Value = serde_json::from_slice(&data).unwrap();
            if rel == "results.json" {
                v["schema"] = "koth-results/1".into();
                for key in ["unit", "ranked_by", "score"] {
                    v.as_object_mut().unwrap().remove(key);
                }
            }
            serde_json::to_vec_pretty(&v).unwrap()
        } else {
            data
        };
        std::fs::write(plain.join(rel), data).unwrap();
    }
    let o = verify(&plain, &["--all"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("written again identically"),
        "{}",
        text(&o)
    );
    // And an edit to its plain zip is found, by entry.
    let old_zip = plain.join("matches.zip");
    koth::tournament::container::write(std::fs::File::create(&old_zip).unwrap(), &edited).unwrap();
    let o = verify(&plain, &["--all"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let named = format!("matches.zip: {}: differs", entries[log].0);
    assert!(text(&o).contains(&named), "{}", text(&o));

    // Another module under a bot's name is not the bot that played.
    let bots = tempfile::tempdir().unwrap();
    for b in COUP_BOTS {
        let src = if b == "taxman" {
            wasm("calculator")
        } else {
            wasm(b)
        };
        std::fs::copy(src, bots.path().join(format!("{b}.wasm"))).unwrap();
    }
    let o = koth(&[&"verify", &archive, &"--bots", &bots.path(), &"--no-cache"]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("taxman") && text(&o).contains("not the bot that played"),
        "{}",
        text(&o)
    );
}
