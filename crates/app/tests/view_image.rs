//! view_image through the whole app with the production OpenAI client against scripted
//! replies: the request after the call carries the image (downscaled, as a data URL right
//! after the call's result), the stored thread keeps no image bytes, a later run of a vision
//! model still sends it, and a model without vision neither sees the tool nor gets images.

#![allow(clippy::unwrap_used)] // test helpers panic to report failures

mod common;

use std::sync::Arc;
use std::time::Duration;

use base64::prelude::{Engine as _, BASE64_STANDARD};
use common::{explicit, fixtures, open_app, Recorder};
use image::{DynamicImage, ImageFormat, Rgb, RgbImage};
use scripted_model::{ScriptedServer, ServerOptions};
use serde_json::Value;
use workbench_app::App;
use workbench_core::agent::{RunOutcome, IMAGE_NOTE_PREFIX};
use workbench_core::config::ProviderKind;

async fn run_in(app: &Arc<App>, srv: &ScriptedServer, thread_id: &str, model: &str) -> RunOutcome {
    let rec = Recorder::default();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), model, None);
    let h = app
        .start_run(thread_id, "What is in the picture?", choice, rec.sink())
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(30), h.finished())
        .await
        .expect("the run ended")
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .map(|t| t["function"]["name"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// The images of a request body as (index of their message, decoded image).
fn images_in(body: &Value) -> Vec<(usize, DynamicImage)> {
    let mut found = Vec::new();
    for (i, m) in body["messages"].as_array().unwrap().iter().enumerate() {
        let Some(parts) = m["content"].as_array() else {
            continue;
        };
        for p in parts.iter().filter(|p| p["type"] == "image_url") {
            let url = p["image_url"]["url"].as_str().unwrap();
            let b64 = url.strip_prefix("data:image/png;base64,").expect(url);
            let bytes = BASE64_STANDARD.decode(b64).unwrap();
            found.push((i, image::load_from_memory(&bytes).unwrap()));
        }
    }
    found
}

fn wide_png() -> Vec<u8> {
    let img = DynamicImage::ImageRgb8(RgbImage::from_fn(4000, 1000, |x, y| {
        Rgb([(x % 256) as u8, (y % 256) as u8, 99])
    }));
    let mut out = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut out), ImageFormat::Png)
        .unwrap();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_request_after_view_image_carries_the_image_and_only_vision_models_get_it() {
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    // The fixture's name says nothing about vision: the user's setting does.
    app.set_model_vision("view-image", Some(true)).unwrap();
    assert!(!app.model_vision("hello").unwrap());
    let thread = app.create_thread(None).unwrap();
    let uploads = app.thread_folder(&thread.id).unwrap().join("uploads");
    std::fs::write(uploads.join("wide.png"), wide_png()).unwrap();

    assert_eq!(
        run_in(&app, &srv, &thread.id, "view-image").await,
        RunOutcome::Completed
    );
    let requests = srv.requests();
    assert_eq!(requests.len(), 2, "the call, then the answer");
    assert!(tool_names(&requests[0].body).contains(&"view_image".to_string()));
    assert!(images_in(&requests[0].body).is_empty());

    let body = &requests[1].body;
    let images = images_in(body);
    assert_eq!(images.len(), 1, "one image in the request after the call");
    let (at, img) = &images[0];
    assert_eq!((img.width(), img.height()), (1568, 392), "downscaled");
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages[at - 1]["role"], "tool");
    assert_eq!(messages[at - 1]["tool_call_id"], "call_view01");
    assert!(
        messages[at - 1]["content"]
            .as_str()
            .unwrap()
            .contains("4000x1000, shown at 1568x392"),
        "{}",
        messages[at - 1]["content"]
    );
    assert_eq!(messages[*at]["role"], "user");
    let note = messages[*at]["content"][0]["text"].as_str().unwrap();
    assert!(note.starts_with(IMAGE_NOTE_PREFIX), "{note}");
    assert!(note.contains("/mnt/user-data/uploads/wide.png"), "{note}");

    // Stored: the result text and a file name in the state, no image message, no bytes.
    let view = app.get_thread(&thread.id).unwrap();
    assert!(view.messages.iter().all(|m| !m.hidden));
    assert!(view
        .messages
        .iter()
        .all(|m| !m.content.contains("base64") && m.images.is_empty()));
    assert_eq!(view.thread.state.viewed_images.len(), 1);
    assert_eq!(
        view.thread.state.viewed_images[0].path,
        "/mnt/user-data/uploads/wide.png"
    );

    // A model without vision: no view_image, and the image is not sent to it.
    assert_eq!(
        run_in(&app, &srv, &thread.id, "hello").await,
        RunOutcome::Completed
    );
    let requests = srv.requests();
    assert_eq!(requests.len(), 3);
    assert!(!tool_names(&requests[2].body).contains(&"view_image".to_string()));
    assert!(
        tool_names(&requests[2].body).contains(&"read_file".to_string()),
        "the other file tools are still there"
    );
    assert!(images_in(&requests[2].body).is_empty());

    // Back on the vision model, a follow-up question still has the picture.
    assert_eq!(
        run_in(&app, &srv, &thread.id, "view-image").await,
        RunOutcome::Completed
    );
    let requests = srv.requests();
    assert_eq!(requests.len(), 4);
    let images = images_in(&requests[3].body);
    assert_eq!(images.len(), 1);
    assert_eq!(
        requests[3].body["messages"][images[0].0 - 1]["tool_call_id"],
        "call_view01"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_visibility_report_says_why_a_text_model_has_no_view_image() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let settings = |model: &str| workbench_core::config::ProviderSettings {
        kind: ProviderKind::Openai,
        base_url: "http://127.0.0.1:9/v1".into(),
        model: model.into(),
        context_window: None,
    };
    let verdict = |app: &App| {
        let report = app.explain_tools(None, &Default::default()).unwrap();
        report
            .tools
            .into_iter()
            .find(|t| t.name == "view_image")
            .unwrap()
    };
    app.save_provider(settings("llama3.1:8b"), None)
        .await
        .unwrap();
    let v = verdict(&app);
    assert_eq!(format!("{:?}", v.visibility), "Hidden");
    assert!(v.reason.contains("llama3.1:8b"), "{}", v.reason);
    assert!(v.reason.contains("images"), "{}", v.reason);

    // A vision family by name, and the user's word against the name.
    app.save_provider(settings("llava:13b"), None)
        .await
        .unwrap();
    assert_eq!(format!("{:?}", verdict(&app).visibility), "Visible");
    app.set_model_vision("llava:13b", Some(false)).unwrap();
    assert_eq!(format!("{:?}", verdict(&app).visibility), "Hidden");
    app.set_model_vision("llava:13b", None).unwrap();
    assert_eq!(format!("{:?}", verdict(&app).visibility), "Visible");
}
