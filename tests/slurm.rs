//! The cluster recipe of docs/cluster.md on a real one-node Slurm (`scripts/slurm/local-cluster.sh`):
//! a scan submitted as a job array, one task killed mid-run and requeued, the merge job's file
//! byte-identical to one unsharded run. Without Slurm (or root to start it) the test shows as
//! ignored; `NIMSEQ_REQUIRE_SLURM=1` (set by `.ci/run`) makes that a failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::common::{nimseq, not_run};

const REQUIRE: &str = "NIMSEQ_REQUIRE_SLURM";

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts/slurm")
        .join(name)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The cluster, stopped by the PIDs it started when the test ends, passed or not.
struct Cluster {
    dir: tempfile::TempDir,
    conf: PathBuf,
}

impl Cluster {
    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", &self.conf)
            .env("NIMSEQ", env!("CARGO_BIN_EXE_nimseq"));
        c
    }

    /// Runs `program ARGS` against the cluster; it must succeed.
    fn run(&self, program: &str, args: &[&str]) -> String {
        let o = self.command(program).args(args).output().unwrap();
        assert!(o.status.success(), "{program} {args:?}: {}", text(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// Waits until `job` has left the queue.
    fn wait_gone(&self, job: &str, limit: Duration) {
        let start = Instant::now();
        while !self.run("squeue", &["-h", "-j", job]).trim().is_empty() {
            assert!(
                start.elapsed() < limit,
                "job {job} still queued after {limit:?}: {}",
                self.run("squeue", &[])
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(script("local-cluster.sh"))
            .arg("stop")
            .arg(self.dir.path())
            .output();
    }
}

/// Why a one-node Slurm cannot be started here, if it cannot.
fn missing() -> Option<String> {
    let found = |tool: &str| Path::new("/usr/sbin").join(tool).exists();
    if !["slurmctld", "slurmd", "munged"].into_iter().all(found) {
        return Some("no Slurm: slurmctld, slurmd or munged not in /usr/sbin (apt-get install slurm-wlm munge)".into());
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Some("no Slurm: starting munged and slurmd needs root".into());
    }
    None
}

fn slurm_array_with_a_killed_task_merges_to_one_run() {
    if let Some(why) = missing() {
        return not_run(&why, REQUIRE);
    }
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let o = Command::new(script("local-cluster.sh"))
        .arg("start")
        .arg(dir.path())
        .output()
        .unwrap();
    let cluster = Cluster {
        conf: dir.path().join("slurm.conf"),
        dir,
    };
    assert!(
        o.status.success(),
        "the cluster did not start: {}",
        text(&o)
    );
    eprintln!(
        "slurm: one-node cluster up in {:.1} s",
        start.elapsed().as_secs_f64()
    );

    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("scan-c150.csv");
    // The reference backend and small chunks: a task runs for seconds, long enough to be
    // killed in the middle; one thread each, so that two tasks run at once on two cores.
    let scan = [
        "sub",
        "scan",
        "--c-max",
        "150",
        "--chunk-size",
        "5000",
        "--backend",
        "reference",
    ];
    let start = Instant::now();
    let submitted = cluster.run(
        script("submit.sh").to_str().unwrap(),
        &[
            &scan[..],
            &[
                "--parts",
                "8",
                "--threads",
                "1",
                "--out",
                out.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    let id = |label: &str| {
        submitted
            .lines()
            .find_map(|l| l.strip_prefix(label))
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or_else(|| panic!("no '{label}' job id in: {submitted}"))
            .to_string()
    };
    let (array, merge) = (id("shards:"), id("merge:"));

    // Kill task 1 once two of its chunks are in, and requeue it.
    let parts = PathBuf::from(format!("{}.parts", out.display()));
    let checkpoint = parts.join("shard-0001-of-0008.csv.checkpoint");
    let chunks_in = || -> u64 {
        std::fs::read_to_string(&checkpoint)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v["next_chunk"].as_u64())
            .unwrap_or(0)
    };
    let waiting = Instant::now();
    while chunks_in() < 2 {
        assert!(
            waiting.elapsed() < Duration::from_secs(120),
            "task 1 never got two chunks in: {}",
            cluster.run("squeue", &[])
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let task = format!("{array}_1");
    cluster.run("scancel", &["--signal=KILL", &task]);
    cluster.run("scontrol", &["requeue", &task]);
    assert!(checkpoint.exists(), "task 1 finished before the kill");

    cluster.wait_gone(&merge, Duration::from_secs(300));
    eprintln!(
        "slurm: 8-task array, a kill and requeue, and the merge in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let job = cluster.run("scontrol", &["show", "job", &task]);
    assert!(job.contains("Restarts=1"), "task 1 was not requeued: {job}");
    // Slurm may call a job that never ran COMPLETED: the files are what count.
    let merge_log = std::fs::read_to_string(parts.join("logs/merge.out")).unwrap_or_default();
    assert!(
        out.exists(),
        "no merged file; the merge job said: {merge_log}"
    );
    let whole = work.path().join("whole.csv");
    // The same scan unsharded, on the fast path: the same rows.
    let one = nimseq()
        .args(&scan[..6])
        .args(["--backend", "cpu", "--out"])
        .arg(&whole)
        .output()
        .unwrap();
    assert!(one.status.success(), "{}", text(&one));
    assert!(
        std::fs::read(&out).unwrap() == std::fs::read(&whole).unwrap(),
        "the merged file differs from one run's"
    );
    let checksum = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("checksum:"))
            .map(str::to_string)
    };
    assert!(checksum(&text(&one)).is_some());
    assert_eq!(checksum(&merge_log), checksum(&text(&one)), "{merge_log}");
}

trials!(slurm_array_with_a_killed_task_merges_to_one_run);
