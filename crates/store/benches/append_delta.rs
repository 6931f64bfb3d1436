//! How fast a run can commit streamed tokens: 5,000 `append_delta` calls on one message, each
//! its own committed insert, against a baseline measured in the same run of the same rows
//! inserted with a plain prepared statement in one transaction (the fastest SQLite can take
//! them, and what a store that only committed at the end would cost).
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use workbench_core::thread::{Message, MessageStatus, ThreadStore};
use workbench_store::SqliteStore;

/// Deltas appended to one message, as a long streamed reply would.
const DELTAS: usize = 5_000;
/// A typical token's worth of text.
const DELTA_TEXT: &str = "token ";

fn per_second(n: usize, took: Duration) -> f64 {
    n as f64 / took.as_secs_f64()
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.db");
    let store = SqliteStore::open(&path).unwrap();
    let thread = store.create_thread("bench").unwrap();
    store.begin_run(&thread.id, "bench-run").unwrap();

    // The store: one committed insert per delta.
    let mut reply = Message::assistant_streaming(&thread.id, "bench-run");
    store.append_message(&reply).unwrap();
    // Per-delta cost of the first and the last tenth, to show it does not grow with the
    // message (no rewrite of what was streamed before).
    let tenth = DELTAS / 10;
    let mut first_tenth = Duration::ZERO;
    let mut last_tenth = Duration::ZERO;
    let started = Instant::now();
    for i in 0..DELTAS {
        let t = Instant::now();
        store.append_delta(&reply.id, DELTA_TEXT, false).unwrap();
        if i < tenth {
            first_tenth += t.elapsed();
        } else if i >= DELTAS - tenth {
            last_tenth += t.elapsed();
        }
    }
    let store_took = started.elapsed();

    // Reading the streaming message back folds every delta.
    let started = Instant::now();
    let loaded = store.load_messages(&thread.id).unwrap();
    let load_took = started.elapsed();
    assert_eq!(loaded[0].content.len(), DELTAS * DELTA_TEXT.len());

    let started = Instant::now();
    reply.content = loaded[0].content.clone();
    reply.status = MessageStatus::Complete;
    store.finish_message(&reply).unwrap();
    let finish_took = started.elapsed();

    // Baseline: the same rows for a second message, plain prepared insert, one transaction,
    // on the same file with the same pragmas.
    let other = Message::assistant_streaming(&thread.id, "bench-run");
    store.append_message(&other).unwrap();
    let mut conn = rusqlite::Connection::open(&path).unwrap();
    conn.pragma_update(None, "synchronous", "NORMAL").unwrap();
    let started = Instant::now();
    let tx = conn.transaction().unwrap();
    {
        let mut stmt = tx
            .prepare(
                "INSERT INTO message_deltas (message_id, seq, text, reasoning)
                 VALUES (?1, ?2, ?3, 0)",
            )
            .unwrap();
        for seq in 1..=DELTAS {
            stmt.execute(rusqlite::params![other.id, seq as i64, DELTA_TEXT])
                .unwrap();
        }
    }
    tx.commit().unwrap();
    let baseline_took = started.elapsed();
    store.end_run("bench-run", "completed").unwrap();

    let store_rate = per_second(DELTAS, store_took);
    let baseline_rate = per_second(DELTAS, baseline_took);
    println!("append_delta: {DELTAS} deltas of {DELTA_TEXT:?} into one message (WAL, synchronous=NORMAL)");
    println!(
        "  store, one commit per delta:        {:>10.0} deltas/s  ({:.1} us/delta, {:?} total)",
        store_rate,
        store_took.as_secs_f64() * 1e6 / DELTAS as f64,
        store_took
    );
    println!(
        "  baseline, one transaction:          {:>10.0} deltas/s  ({:.1} us/delta, {:?} total)",
        baseline_rate,
        baseline_took.as_secs_f64() * 1e6 / DELTAS as f64,
        baseline_took
    );
    println!(
        "  ratio baseline/store:               {:>10.1}x slower per delta for durability",
        baseline_rate / store_rate
    );
    println!(
        "  first vs last {tenth} deltas:          {:.1} vs {:.1} us/delta",
        first_tenth.as_secs_f64() * 1e6 / tenth as f64,
        last_tenth.as_secs_f64() * 1e6 / tenth as f64
    );
    println!("  load_messages folding {DELTAS} deltas: {load_took:?}");
    println!("  finish_message replacing them:       {finish_took:?}");
}
