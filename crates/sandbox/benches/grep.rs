//! `grep` tool vs ripgrep on the same generated tree, in the same run.
//!
//! Generates ~5,000 files / ~50 MB of source-like text in a temporary folder used as the
//! workspace, then times our `grep` tool (through its `Tool::call`, as the model calls it) and
//! `rg` (from PATH) on a few patterns, best of several runs each, and prints ours/rg.
//! Target: ratio <= 1.3. Run: `cargo bench -p workbench-sandbox --bench grep`.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio_util::sync::CancellationToken;
use workbench_core::tools::{Tool, ToolContext};
use workbench_sandbox::fs::GrepTool;
use workbench_sandbox::ThreadRoots;

/// Folders in the tree.
const DIRS: usize = 50;
/// Files per folder.
const FILES_PER_DIR: usize = 100;
/// Approximate bytes per file (~10 KB, a typical source file).
const FILE_BYTES: usize = 10_000;
/// Timed runs per pattern and tool; the best is kept (the first run warms the page cache).
const RUNS: usize = 5;

const WORDS: [&str; 16] = [
    "let", "value", "return", "self", "match", "config", "error", "result", "buffer", "index",
    "thread", "parse", "write", "read", "token", "state",
];

/// A small deterministic generator: the tree is the same on every run.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

fn generate(ws: &Path) -> std::io::Result<u64> {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut total = 0u64;
    for d in 0..DIRS {
        let dir = ws.join(format!("mod_{d:02}"));
        std::fs::create_dir_all(&dir)?;
        for f in 0..FILES_PER_DIR {
            let mut text = String::with_capacity(FILE_BYTES + 200);
            let mut line = 0;
            while text.len() < FILE_BYTES {
                line += 1;
                let r = next(&mut seed);
                match r % 50 {
                    0 => text.push_str(&format!("fn handle_{}(x: u32) -> u32 {{\n", r % 1000)),
                    1 if (r / 50) % 997 == 7 => text.push_str("    // needle_rare_marker here\n"),
                    _ => {
                        text.push_str("    ");
                        for k in 0..8 {
                            text.push_str(WORDS[((r >> (k * 4)) & 15) as usize]);
                            text.push(' ');
                        }
                        text.push_str(&format!("{line};\n"));
                    }
                }
            }
            let mut file = std::fs::File::create(dir.join(format!("file_{f:03}.rs")))?;
            file.write_all(text.as_bytes())?;
            total += text.len() as u64;
        }
    }
    Ok(total)
}

fn best(mut f: impl FnMut() -> Duration) -> Duration {
    (0..RUNS).map(|_| f()).min().unwrap_or_default()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tmp = tempfile::tempdir()?;
    let roots = ThreadRoots::under(tmp.path());
    roots.create()?;
    let t0 = Instant::now();
    let bytes = generate(&roots.workspace)?;
    println!(
        "tree: {} files, {:.1} MB, generated in {:.1}s",
        DIRS * FILES_PER_DIR,
        bytes as f64 / 1e6,
        t0.elapsed().as_secs_f64()
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let tool = GrepTool::new(roots.clone());
    let ctx = ToolContext {
        thread_id: "bench".into(),
        run_id: "bench".into(),
        call_id: "bench".into(),
        cancel: CancellationToken::new(),
    };
    let patterns: [(&str, bool, bool); 4] = [
        ("needle_rare_marker", true, false),
        (r"fn handle_\d+\(", false, false),
        ("RETURN SELF", false, true),
        (r"\w+_9\d\d\(x", false, false),
    ];
    println!(
        "{:<22} {:>10} {:>10} {:>7}",
        "pattern", "ours ms", "rg ms", "ratio"
    );
    let mut worst: f64 = 0.0;
    for (pattern, literal, ignore_case) in patterns {
        let args = json!({"pattern": pattern, "literal": literal, "ignore_case": ignore_case});
        let ours = best(|| {
            let t = Instant::now();
            let out = rt.block_on(tool.call(args.clone(), &ctx));
            let elapsed = t.elapsed();
            if let Ok(o) = &out {
                assert!(!o.is_error, "{}", o.content);
            }
            elapsed
        });
        let rg = best(|| {
            let mut cmd = Command::new("rg");
            cmd.arg("-n").arg("--no-heading");
            if literal {
                cmd.arg("-F");
            }
            if ignore_case {
                cmd.arg("-i");
            }
            cmd.arg(pattern)
                .arg(&roots.workspace)
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            let t = Instant::now();
            let status = cmd.status();
            let elapsed = t.elapsed();
            assert!(status.is_ok(), "rg is not installed (apt: ripgrep)");
            elapsed
        });
        let ratio = ours.as_secs_f64() / rg.as_secs_f64();
        worst = worst.max(ratio);
        println!(
            "{:<22} {:>10.1} {:>10.1} {:>7.2}",
            pattern,
            ours.as_secs_f64() * 1e3,
            rg.as_secs_f64() * 1e3,
            ratio
        );
    }
    println!("worst ratio ours/rg: {worst:.2} (target <= 1.3)");
    Ok(())
}
