//! The `bash` tool and background jobs as the model uses them: working directory, scrubbed
//! environment, timeout and cancellation killing the whole group, output cap, exit codes,
//! masking, and jobs.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolOutput};
use workbench_sandbox::shell::{shell_tools, BashTool, Confinement, JobTable, Shell, ShellConfig};
use workbench_sandbox::ThreadRoots;

struct Fixture {
    _dir: tempfile::TempDir,
    roots: ThreadRoots,
    shell: Arc<Shell>,
    jobs: Arc<JobTable>,
    bash: BashTool,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("tempdir");
    let roots = ThreadRoots::under(&dir.path().join("thread"));
    roots.create().expect("create roots");
    let shell = Arc::new(
        Shell::new(ShellConfig {
            roots: roots.clone(),
            allow_network: false,
            // Behaviour tests also run where confinement is missing; attacks_shell.rs does not.
            allow_unconfined: true,
        })
        .expect("shell"),
    );
    let jobs = Arc::new(JobTable::new());
    let bash = BashTool::new(shell.clone(), jobs.clone());
    Fixture {
        _dir: dir,
        roots,
        shell,
        jobs,
        bash,
    }
}

fn ctx(cancel: &CancellationToken) -> ToolContext {
    ToolContext {
        thread_id: "t1".into(),
        run_id: "r1".into(),
        call_id: "c1".into(),
        cancel: cancel.clone(),
    }
}

async fn bash(f: &Fixture, args: serde_json::Value) -> Result<ToolOutput, ToolError> {
    f.bash.call(args, &ctx(&CancellationToken::new())).await
}

async fn ok(f: &Fixture, command: &str) -> String {
    let out = bash(f, serde_json::json!({ "command": command }))
        .await
        .expect("bash call");
    assert!(!out.is_error, "{command}: {}", out.content);
    out.content
}

/// Whether `pid` is gone or a zombie (nobody reaps orphans in some containers).
fn dead(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

fn read_pid(path: &std::path::Path) -> u32 {
    std::fs::read_to_string(path)
        .expect("pid file")
        .trim()
        .parse()
        .expect("pid")
}

#[test]
fn confinement_is_detected_on_this_machine() {
    match Confinement::detect() {
        Some(kind) => {
            println!("confinement: {} (ABI {})", kind.label(), kind.landlock_abi);
            assert!(kind.label().starts_with("landlock"));
        }
        None => println!("SKIP-NOTE: no confinement on this machine"),
    }
}

#[tokio::test]
async fn runs_in_the_workspace_and_shows_virtual_paths() {
    let f = fixture();
    let out = ok(&f, "pwd; pwd -P; echo $HOME; readlink -f ../outputs").await;
    assert_eq!(
        out,
        "/mnt/user-data/workspace\n/mnt/user-data/workspace\n/mnt/user-data/workspace\n\
         /mnt/user-data/outputs\n[exit code: 0]"
    );
    let host = f.roots.workspace.to_string_lossy().into_owned();
    assert!(!out.contains(&host));
}

#[tokio::test]
async fn the_private_temp_folder_is_tmpdir_and_writable() {
    let f = fixture();
    let out = ok(
        &f,
        "echo t > \"$TMPDIR/x\" && cat \"$TMPDIR/x\" && echo $TMPDIR",
    )
    .await;
    let tmp = f.shell.temp_dir().to_string_lossy().into_owned();
    assert_eq!(out, format!("t\n{tmp}\n[exit code: 0]"));
}

#[tokio::test]
async fn a_spawn_failure_is_an_error_with_virtual_paths() {
    let dir = tempfile::tempdir().expect("tempdir");
    // The folders are never created: confinement cannot open the workspace.
    let roots = ThreadRoots::under(&dir.path().join("missing"));
    let shell = Arc::new(
        Shell::new(ShellConfig {
            roots,
            allow_network: false,
            allow_unconfined: true,
        })
        .expect("shell"),
    );
    let bash = BashTool::new(shell, Arc::new(JobTable::new()));
    let res = bash
        .call(
            serde_json::json!({"command": "true"}),
            &ctx(&CancellationToken::new()),
        )
        .await;
    let Err(ToolError::Failed(message)) = res else {
        panic!("expected a failure, got {res:?}");
    };
    assert!(message.contains("/mnt/user-data/"), "{message}");
    assert!(
        !message.contains(&*dir.path().to_string_lossy()),
        "{message}"
    );
}

#[tokio::test]
async fn writes_inside_the_roots_and_dev_null_work() {
    let f = fixture();
    let out = ok(
        &f,
        "echo hi > a.txt && mkdir -p d/e && mv a.txt d/e/ && cat d/e/a.txt \
         && echo o > ../outputs/o.txt && echo u > ../uploads/u.txt && echo x > /dev/null \
         && echo err >&2 && ln -s d/e/a.txt link && cat link && rm -r d link",
    )
    .await;
    assert_eq!(out, "hi\nerr\nhi\n[exit code: 0]");
    assert_eq!(
        std::fs::read_to_string(f.roots.outputs.join("o.txt")).expect("o"),
        "o\n"
    );
}

#[tokio::test]
async fn a_non_zero_exit_is_a_normal_result_with_the_code() {
    let f = fixture();
    let out = bash(&f, serde_json::json!({"command": "echo before; exit 3"}))
        .await
        .expect("call");
    assert!(!out.is_error);
    assert_eq!(out.content, "before\n[exit code: 3]");
}

#[tokio::test]
async fn output_is_capped_head_and_tail_with_the_omitted_count() {
    let f = fixture();
    let out = ok(&f, "head -c 100000 /dev/zero | tr '\\0' a; echo; echo END").await;
    // 100000 'a' + "\n" + "END\n" = 100005 bytes; 8192 head + 8192 tail kept.
    assert!(
        out.contains("... 83621 bytes omitted ..."),
        "{}",
        &out[..200]
    );
    assert!(out.starts_with("aaaa"));
    assert!(out.ends_with("a\nEND\n[exit code: 0]"));
    assert!(out.len() < 17_000);
}

#[tokio::test]
async fn a_timeout_kills_the_whole_group_promptly() {
    let f = fixture();
    let pid_file = f.roots.workspace.join("pid");
    let started = Instant::now();
    let out = bash(
        &f,
        serde_json::json!({
            "command": "sleep 100 & echo $! > pid; echo started; sleep 100",
            "timeout_secs": 1
        }),
    )
    .await
    .expect("call");
    let took = started.elapsed();
    assert!(out.is_error, "{}", out.content);
    assert!(
        out.content.contains("timed out after 1 s"),
        "{}",
        out.content
    );
    assert!(out.content.contains("started"));
    assert!(took < Duration::from_secs(4), "took {took:?}");
    let pid = read_pid(&pid_file);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(dead(pid), "background child {pid} survived the timeout");
}

#[tokio::test]
async fn cancelling_the_run_kills_the_command() {
    let f = fixture();
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(500)).await;
        trigger.cancel();
    });
    let started = Instant::now();
    let res = f
        .bash
        .call(
            serde_json::json!({"command": "sleep 100 & echo $! > pid; sleep 100"}),
            &ctx(&cancel),
        )
        .await;
    assert_eq!(res, Err(ToolError::Cancelled));
    assert!(started.elapsed() < Duration::from_secs(4));
    let pid = read_pid(&f.roots.workspace.join("pid"));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(dead(pid), "child {pid} survived the cancel");
}

#[tokio::test]
async fn a_finished_command_leaves_no_process_behind() {
    let f = fixture();
    ok(&f, "sleep 100 & echo $! > pid; echo done").await;
    let pid = read_pid(&f.roots.workspace.join("pid"));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(dead(pid), "left-behind child {pid} still runs");
}

#[tokio::test]
async fn bad_arguments_are_errors_the_model_can_fix() {
    let f = fixture();
    for args in [
        serde_json::json!({"command": ""}),
        serde_json::json!({"command": "ls", "timeout_secs": 9999}),
        serde_json::json!({"cmd": "ls"}),
    ] {
        assert!(matches!(
            bash(&f, args).await,
            Err(ToolError::InvalidArguments(_))
        ));
    }
}

#[tokio::test]
async fn background_jobs_stream_output_and_can_be_cancelled() {
    let f = fixture();
    let tools = shell_tools(f.shell.clone(), f.jobs.clone());
    let names: Vec<&str> = tools.iter().map(|t| t.spec().name.as_str()).collect();
    assert_eq!(names, ["bash", "job_output", "job_cancel"]);
    assert!(tools
        .iter()
        .all(|t| t.meta().is_shell && t.meta().group == "bash"));
    let c = ctx(&CancellationToken::new());

    let started = tools[0]
        .call(
            serde_json::json!({"command": "for i in 1 2 3; do echo line$i; sleep 0.1; done; pwd",
                               "background": true}),
            &c,
        )
        .await
        .expect("start");
    assert!(started.content.contains("job-1"), "{}", started.content);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let polled = tools[1]
        .call(serde_json::json!({"job_id": "job-1"}), &c)
        .await
        .expect("poll");
    assert!(
        polled.content.contains("exited with code 0"),
        "{}",
        polled.content
    );
    assert!(polled
        .content
        .contains("line1\nline2\nline3\n/mnt/user-data/workspace"));
    let again = tools[1]
        .call(serde_json::json!({"job_id": "job-1"}), &c)
        .await
        .expect("poll");
    assert!(
        again.content.contains("(no new output)"),
        "{}",
        again.content
    );

    tools[0]
        .call(
            serde_json::json!({"command": "echo $$ > jobpid; sleep 100", "background": true}),
            &c,
        )
        .await
        .expect("start");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(f.jobs.running(), ["job-2"]);
    let cancelled = tools[2]
        .call(serde_json::json!({"job_id": "job-2"}), &c)
        .await
        .expect("cancel");
    assert!(
        cancelled.content.contains("cancelled"),
        "{}",
        cancelled.content
    );
    assert!(f.jobs.running().is_empty());
    let pid = read_pid(&f.roots.workspace.join("jobpid"));
    assert!(dead(pid));

    let unknown = tools[1]
        .call(serde_json::json!({"job_id": "job-9"}), &c)
        .await;
    assert!(matches!(unknown, Err(ToolError::InvalidArguments(m)) if m.contains("job-1")));
}

#[tokio::test]
async fn jobs_die_with_their_run_and_with_their_table() {
    let f = fixture();
    let run = CancellationToken::new();
    let id = f
        .jobs
        .start(&f.shell, "echo $$ > runpid; sleep 100", &run)
        .await
        .expect("start");
    tokio::time::sleep(Duration::from_millis(300)).await;
    run.cancel();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(f.jobs.poll(&id).expect("poll").contains("cancelled"));
    assert!(dead(read_pid(&f.roots.workspace.join("runpid"))));

    let table = JobTable::new();
    table
        .start(
            &f.shell,
            "echo $$ > droppid; sleep 100",
            &CancellationToken::new(),
        )
        .await
        .expect("start");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pid = read_pid(&f.roots.workspace.join("droppid"));
    drop(table);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(dead(pid), "job {pid} survived its table");
}

#[tokio::test]
async fn the_job_list_shows_each_job_with_its_masked_command_and_whether_it_runs() {
    let f = fixture();
    let workspace = f.roots.workspace.display().to_string();
    for command in ["sleep 30".to_string(), format!("cat {workspace}/x; true")] {
        bash(
            &f,
            serde_json::json!({"command": command, "background": true}),
        )
        .await
        .expect("start");
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let list = f.jobs.list();
    assert_eq!(list.len(), 2);
    assert_eq!((list[0].id.as_str(), list[0].running), ("job-1", true));
    assert_eq!(list[0].command, "sleep 30");
    assert!(!list[1].running, "the second job has ended");
    assert_eq!(list[1].command, "cat /mnt/user-data/workspace/x; true");
    f.jobs.cancel("job-1").await.expect("cancel");
    assert!(f.jobs.list().iter().all(|j| !j.running));
}
