//! Run independent jobs on worker threads and return their results in job order.
//!
//! A job may depend on earlier jobs (for example, two games that share a bot's tournament-wide
//! scratch directory must see it in job order). A job starts only when all its dependencies
//! are done, and among the ready jobs the lowest index goes first, so every job sees exactly
//! the state it would see in a sequential run: the results do not depend on the worker count
//! or on which thread finishes first.

use std::sync::{Condvar, Mutex};

struct State<R> {
    started: Vec<bool>,
    done: Vec<bool>,
    results: Vec<Option<R>>,
    next_unstarted: usize,
    running: usize,
    panicked: bool,
}

/// Run `count` jobs with `workers` threads. `deps[i]` lists jobs (all `< i`) that must finish
/// before job `i` starts; pass an empty slice when there are none. `run(i)` does job `i`;
/// `done(finished)` is called after each job with the number finished so far (for progress).
pub fn run_jobs<R, F, P>(
    count: usize,
    deps: &[Vec<usize>],
    workers: usize,
    run: F,
    done: P,
) -> Vec<R>
where
    R: Send,
    F: Fn(usize) -> R + Sync,
    P: Fn(usize) + Sync,
{
    let state = Mutex::new(State {
        started: vec![false; count],
        done: vec![false; count],
        results: (0..count).map(|_| None).collect(),
        next_unstarted: 0,
        running: 0,
        panicked: false,
    });
    let wake = Condvar::new();
    let ready = |s: &State<R>, i: usize| deps.get(i).is_none_or(|d| d.iter().all(|&j| s.done[j]));
    let worker = || loop {
        let job = {
            let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if s.panicked || s.next_unstarted >= count {
                    break None;
                }
                let pick = (s.next_unstarted..count).find(|&i| !s.started[i] && ready(&s, i));
                if let Some(i) = pick {
                    s.started[i] = true;
                    s.running += 1;
                    while s.next_unstarted < count && s.started[s.next_unstarted] {
                        s.next_unstarted += 1;
                    }
                    break Some(i);
                }
                if s.running == 0 {
                    // Nothing ready and nothing running: the dependencies can never be met.
                    // Stop the other workers before failing, so none waits forever.
                    s.panicked = true;
                    drop(s);
                    wake.notify_all();
                    panic!("job dependencies form a cycle or point forward");
                }
                s = wake.wait(s).unwrap_or_else(|e| e.into_inner());
            }
        };
        let Some(i) = job else { return };
        // A panic in one job must not leave the other workers waiting forever.
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(i)));
        let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
        s.running -= 1;
        match outcome {
            Ok(r) => {
                s.results[i] = Some(r);
                s.done[i] = true;
                let finished = s.done.iter().filter(|&&d| d).count();
                drop(s);
                done(finished);
            }
            Err(p) => {
                s.panicked = true;
                drop(s);
                wake.notify_all();
                std::panic::resume_unwind(p);
            }
        }
        wake.notify_all();
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers.max(1)).map(|_| scope.spawn(worker)).collect();
        for h in handles {
            if let Err(p) = h.join() {
                std::panic::resume_unwind(p);
            }
        }
    });
    let s = state.into_inner().unwrap_or_else(|e| e.into_inner());
    s.results
        .into_iter()
        .map(|r| r.expect("every job ran"))
        .collect()
}

/// Dependencies that serialise jobs sharing a resource: `uses[i]` lists the resources job `i`
/// touches; each job then depends on the previous job that touched each of them.
pub fn chain_by_resource(uses: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut last: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    uses.iter()
        .enumerate()
        .map(|(i, res)| {
            // A resource listed twice must not make the job depend on itself.
            let mut res = res.clone();
            res.sort_unstable();
            res.dedup();
            let mut d: Vec<usize> = res.iter().filter_map(|r| last.insert(*r, i)).collect();
            d.sort_unstable();
            d.dedup();
            d
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn results_come_back_in_job_order_for_any_worker_count() {
        for workers in [1, 2, 4, 8] {
            let out = run_jobs(100, &[], workers, |i| i * i, |_| {});
            assert_eq!(out, (0..100).map(|i| i * i).collect::<Vec<_>>());
        }
    }

    #[test]
    fn dependent_jobs_see_a_sequential_history() {
        // Each job appends its index to the logs of the resources it uses; with chained
        // dependencies every resource's log must be in increasing job order.
        let uses: Vec<Vec<usize>> = (0..60).map(|i| vec![i % 5, (i * 7 + 1) % 5]).collect();
        let deps = chain_by_resource(&uses);
        for workers in [1, 3, 8] {
            let logs: Vec<Mutex<Vec<usize>>> = (0..5).map(|_| Mutex::new(Vec::new())).collect();
            let progress = AtomicUsize::new(0);
            run_jobs(
                60,
                &deps,
                workers,
                |i| {
                    for &r in &uses[i] {
                        logs[r].lock().unwrap().push(i);
                    }
                },
                |n| {
                    progress.fetch_max(n, Ordering::SeqCst);
                },
            );
            assert_eq!(progress.load(Ordering::SeqCst), 60);
            for l in &logs {
                let l = l.lock().unwrap();
                assert!(l.windows(2).all(|w| w[0] <= w[1]), "out of order: {l:?}");
            }
        }
    }

    #[test]
    fn chain_links_each_job_to_the_previous_user() {
        let deps = chain_by_resource(&[vec![0, 1], vec![1, 2], vec![0, 2], vec![3], vec![3, 3]]);
        assert_eq!(deps, vec![vec![], vec![0], vec![0, 1], vec![], vec![3]]);
    }

    #[test]
    #[should_panic(expected = "cycle")]
    fn impossible_dependencies_fail_instead_of_hanging() {
        run_jobs(3, &[vec![], vec![1], vec![]], 2, |i| i, |_| {});
    }

    #[test]
    #[should_panic(expected = "job 3 failed")]
    fn a_panicking_job_does_not_hang_the_others() {
        run_jobs(
            10,
            &[],
            4,
            |i| if i == 3 { panic!("job 3 failed") } else { i },
            |_| {},
        );
    }
}
