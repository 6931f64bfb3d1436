//! Title sources: automatic titles replace each other, never the user's.
#![allow(clippy::unwrap_used)]

mod common;

use common::{db_path, raw};
use workbench_core::thread::{StoreError, ThreadStore};
use workbench_store::{SqliteStore, TitleSource};

#[test]
fn automatic_titles_follow_each_other_but_never_replace_a_rename() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let t = store.create_thread("New thread").unwrap();
    assert_eq!(store.title_source(&t.id).unwrap(), TitleSource::Default);

    let first = [TitleSource::Default];
    assert!(store
        .set_title_if(&t.id, "Plan the trip", TitleSource::FirstMessage, &first)
        .unwrap());
    // A second first-message title does not replace the first one.
    assert!(!store
        .set_title_if(&t.id, "Other", TitleSource::FirstMessage, &first)
        .unwrap());
    assert!(store
        .set_title_if(
            &t.id,
            "Trip to Lisbon",
            TitleSource::Model,
            &[TitleSource::FirstMessage]
        )
        .unwrap());
    assert_eq!(store.get_thread(&t.id).unwrap().title, "Trip to Lisbon");
    assert_eq!(store.title_source(&t.id).unwrap(), TitleSource::Model);

    store.rename_thread(&t.id, "My trip").unwrap();
    assert_eq!(store.title_source(&t.id).unwrap(), TitleSource::User);
    let any = [
        TitleSource::Default,
        TitleSource::FirstMessage,
        TitleSource::Model,
    ];
    assert!(!store
        .set_title_if(&t.id, "Model again", TitleSource::Model, &any)
        .unwrap());
    assert_eq!(store.get_thread(&t.id).unwrap().title, "My trip");
}

#[test]
fn setting_a_title_checks_the_thread_and_the_text() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    assert!(matches!(
        store.set_title_if("nope", "x", TitleSource::Model, &[TitleSource::Default]),
        Err(StoreError::ThreadNotFound(_))
    ));
    assert!(matches!(
        store.title_source("nope"),
        Err(StoreError::ThreadNotFound(_))
    ));
    let t = store.create_thread("New thread").unwrap();
    assert!(store
        .set_title_if(&t.id, "  ", TitleSource::Model, &[TitleSource::Default])
        .is_err());
    assert_eq!(store.get_thread(&t.id).unwrap().title, "New thread");
}

#[test]
fn threads_from_before_the_migration_keep_their_titles() {
    let (_dir, path) = db_path();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    {
        let conn = raw(&path);
        for i in 0..5 {
            conn.execute_batch(workbench_store::schema_step(i).unwrap())
                .unwrap();
        }
        conn.pragma_update(None, "user_version", 5).unwrap();
        conn.execute_batch(
            "INSERT INTO threads (id, title, created_at, updated_at) VALUES
               ('named', 'Budget review', 1, 1), ('fresh', 'New thread', 2, 2);",
        )
        .unwrap();
    }
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(store.title_source("named").unwrap(), TitleSource::Kept);
    assert_eq!(store.title_source("fresh").unwrap(), TitleSource::Default);
}
