//! `view_image`: the model looks at an image file in the thread's folders. The file is
//! resolved and read like `read_file` (read-only, confined to the roots), prepared by
//! [`super::image_prep`], and written to the thread's viewed-images folder; the result's
//! [`StateUpdate::ViewedImage`] makes the run loop attach it to the following model requests.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use workbench_core::model::ToolSpec;
use workbench_core::thread::ViewedImage;
use workbench_core::tools::{
    StateUpdate, Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource,
};

use super::args::Args;
use super::image_prep::{prepare, MAX_IMAGE_BYTES, MAX_LONG_SIDE};
use super::{human_size, FILE_GROUP};
use crate::roots::ThreadRoots;
use crate::vpath::{mask_host_paths, VirtualFs, VpathError};

/// The name the model calls.
pub const VIEW_IMAGE_NAME: &str = "view_image";
/// Prepared images kept in a thread's viewed-images folder; older ones are deleted. Well
/// above what the thread state refers to (`MAX_VIEWED_IMAGES`), so parallel calls never lose
/// one that is still attached.
const KEEP_PREPARED: usize = 16;

/// The `view_image` tool over a thread's roots, keeping prepared images in `images_dir`.
pub struct ViewImageTool {
    roots: ThreadRoots,
    images_dir: PathBuf,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl ViewImageTool {
    /// `view_image` over `roots`; prepared images go to `images_dir` (the thread's
    /// `viewed-images` folder, outside the roots the model can reach).
    pub fn new(roots: ThreadRoots, images_dir: PathBuf) -> Self {
        let spec = ToolSpec {
            name: VIEW_IMAGE_NAME.into(),
            description: format!(
                "Look at an image file (jpg, png, webp or gif, up to {}). The image is shown \
                 to you right after this call's result, scaled to at most {MAX_LONG_SIDE} px \
                 on its long side.",
                human_size(MAX_IMAGE_BYTES)
            ),
            parameters: json!({
                "type": "object",
                "properties": {
                    "image_path": {"type": "string", "description": "The image, e.g. /mnt/user-data/uploads/screenshot.png."}
                },
                "required": ["image_path"],
                "additionalProperties": false
            }),
        };
        Self {
            roots,
            images_dir,
            spec,
            meta: ToolMeta {
                needs_vision: true,
                ..ToolMeta::new(ToolSource::Sandbox, FILE_GROUP)
            },
        }
    }
}

/// Why a call failed, before masking host paths out of the sentence.
#[derive(Debug, thiserror::Error)]
enum ViewError {
    #[error(transparent)]
    Path(#[from] VpathError),
    #[error("{0}")]
    Refused(String),
}

/// Reads, prepares and stores the image; returns the model's text and the state record.
fn view(
    vfs: &VirtualFs,
    images_dir: &Path,
    path: &str,
    call_id: &str,
) -> Result<(String, ViewedImage), ViewError> {
    let vp = vfs.resolve(path)?;
    let (file, meta) = vfs.open_file(&vp)?;
    if meta.len() > MAX_IMAGE_BYTES {
        return Err(ViewError::Refused(format!(
            "`{}` is {} ({} bytes), over view_image's limit of {} — make a smaller copy first",
            vp.virt,
            human_size(meta.len()),
            meta.len(),
            human_size(MAX_IMAGE_BYTES)
        )));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // One byte over the limit tells a file that grew after the check.
    file.take(MAX_IMAGE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| vfs.io_error(e, &vp, "read"))?;
    if bytes.len() as u64 > MAX_IMAGE_BYTES {
        return Err(ViewError::Refused(format!(
            "`{}` is over {}; view_image takes images up to that size",
            vp.virt,
            human_size(MAX_IMAGE_BYTES)
        )));
    }
    let image = prepare(&bytes).map_err(|e| ViewError::Refused(format!("`{}`: {e}", vp.virt)))?;
    let file_name = format!("{}.{}", workbench_core::new_id(), image.extension);
    store(images_dir, &file_name, &image.data).map_err(|e| {
        ViewError::Refused(format!(
            "`{}` was read but could not be kept for the model: {e}",
            vp.virt
        ))
    })?;
    let scaled = if (image.width, image.height) == (image.original_width, image.original_height) {
        String::new()
    } else {
        format!(", shown at {}x{}", image.width, image.height)
    };
    let text = format!(
        "Showing `{}` ({}, {}x{}{scaled}). The image follows this result.",
        vp.virt, image.original_format, image.original_width, image.original_height
    );
    let record = ViewedImage {
        call_id: call_id.to_string(),
        path: vp.virt.clone(),
        media_type: image.media_type.to_string(),
        width: image.width,
        height: image.height,
        file: file_name,
    };
    Ok((text, record))
}

/// Writes a prepared image and deletes the oldest beyond [`KEEP_PREPARED`] (names start with
/// a time-ordered id, so name order is age order).
fn store(dir: &Path, name: &str, data: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(name), data)?;
    let mut names: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name())
        .collect();
    names.sort();
    let excess = names.len().saturating_sub(KEEP_PREPARED);
    for old in &names[..excess] {
        // A file that cannot be deleted only costs disk space.
        let _ = std::fs::remove_file(dir.join(old));
    }
    Ok(())
}

#[async_trait::async_trait]
impl Tool for ViewImageTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(&self, args: Value, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        if ctx.cancel.is_cancelled() {
            return Err(ToolError::Cancelled);
        }
        let a = Args::new(VIEW_IMAGE_NAME, &args, &["image_path"])?;
        let path = a
            .string("image_path", "\"/mnt/user-data/uploads/photo.jpg\"")?
            .to_string();
        let (roots, dir, call_id) = (
            self.roots.clone(),
            self.images_dir.clone(),
            ctx.call_id.clone(),
        );
        let joined = tokio::task::spawn_blocking(move || {
            let vfs = VirtualFs::open(&roots);
            (view(&vfs, &dir, &path, &call_id), roots)
        })
        .await;
        let (res, roots) =
            joined.map_err(|e| ToolError::Failed(format!("view_image stopped: {e}")))?;
        Ok(match res {
            Ok((text, record)) => {
                ToolOutput::text(text).with_update(StateUpdate::ViewedImage(Box::new(record)))
            }
            Err(e) => ToolOutput::error(mask_host_paths(&e.to_string(), &roots)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{DynamicImage, ImageFormat, Rgb, RgbImage};
    use tokio_util::sync::CancellationToken;

    struct Fixture {
        _dir: tempfile::TempDir,
        roots: ThreadRoots,
        images: PathBuf,
        tool: ViewImageTool,
    }

    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let roots = ThreadRoots::under(dir.path());
        roots.create().unwrap();
        let images = dir.path().join("viewed-images");
        let tool = ViewImageTool::new(roots.clone(), images.clone());
        Fixture {
            _dir: dir,
            roots,
            images,
            tool,
        }
    }

    fn ctx() -> ToolContext {
        ToolContext {
            thread_id: "t".into(),
            run_id: "r".into(),
            call_id: "call_1".into(),
            cancel: CancellationToken::new(),
        }
    }

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = DynamicImage::ImageRgb8(RgbImage::from_fn(w, h, |x, y| {
            Rgb([(x % 256) as u8, (y % 256) as u8, 7])
        }));
        let mut out = Vec::new();
        img.write_to(&mut std::io::Cursor::new(&mut out), ImageFormat::Png)
            .unwrap();
        out
    }

    async fn call(f: &Fixture, path: &str) -> ToolOutput {
        f.tool
            .call(json!({"image_path": path}), &ctx())
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn an_upload_is_prepared_kept_and_recorded() {
        let f = fixture();
        std::fs::write(f.roots.uploads.join("wide.png"), png(4000, 1000)).unwrap();
        let out = call(&f, "/mnt/user-data/uploads/wide.png").await;
        assert!(!out.is_error, "{}", out.content);
        assert!(
            out.content.contains("PNG, 4000x1000, shown at 1568x392"),
            "{}",
            out.content
        );
        let Some(StateUpdate::ViewedImage(v)) = out.update else {
            panic!("no image recorded: {:?}", out.update)
        };
        assert_eq!(v.call_id, "call_1");
        assert_eq!(v.path, "/mnt/user-data/uploads/wide.png");
        assert_eq!((v.width, v.height), (1568, 392));
        assert!(v.has_plain_file_name());
        let kept = std::fs::read(f.images.join(&v.file)).unwrap();
        let back = image::load_from_memory(&kept).unwrap();
        assert_eq!((back.width(), back.height()), (1568, 392));
    }

    #[tokio::test]
    async fn problems_are_error_results_that_say_what_is_wrong() {
        let f = fixture();
        std::fs::write(f.roots.workspace.join("notes.txt"), "hello").unwrap();
        let big = std::fs::File::create(f.roots.workspace.join("huge.png")).unwrap();
        big.set_len(MAX_IMAGE_BYTES + 1).unwrap();
        let outside = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(outside.path(), png(4, 4)).unwrap();
        std::os::unix::fs::symlink(outside.path(), f.roots.workspace.join("link.png")).unwrap();

        let cases = [
            ("/mnt/user-data/workspace/missing.png", "was not found"),
            ("/mnt/user-data/workspace/notes.txt", "text file"),
            (
                "/mnt/user-data/workspace/huge.png",
                "over view_image's limit of 20.0 mb",
            ),
            ("/etc/passwd", "/mnt/user-data"),
            ("/mnt/user-data/workspace/link.png", "outside"),
            ("/mnt/user-data/workspace", "directory"),
        ];
        for (path, want) in cases {
            let out = call(&f, path).await;
            assert!(out.is_error, "{path}: {}", out.content);
            assert!(out.update.is_none(), "{path}");
            assert!(
                out.content.to_lowercase().contains(want),
                "{path}: {}",
                out.content
            );
            assert!(
                !out.content.contains(&*f._dir.path().to_string_lossy()),
                "host path leaked: {}",
                out.content
            );
        }
        assert!(!f.images.exists() || std::fs::read_dir(&f.images).unwrap().count() == 0);
    }

    #[tokio::test]
    async fn a_missing_argument_says_how_to_call() {
        let f = fixture();
        let err = f.tool.call(json!({}), &ctx()).await.unwrap_err();
        assert!(err.to_string().contains("image_path"), "{err}");
    }

    #[test]
    fn only_the_newest_prepared_files_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let mut names = Vec::new();
        for _ in 0..KEEP_PREPARED + 3 {
            let name = format!("{}.png", workbench_core::new_id());
            store(dir.path(), &name, b"x").unwrap();
            names.push(name);
        }
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, names[3..]);
    }
}
