//! Getting an image file ready for a model: recognise the format (jpg, png, webp, gif only),
//! decode it within a memory limit, downscale it to at most [`MAX_LONG_SIDE`] pixels on its
//! long side, and encode it in a format both providers accept.
//!
//! Not here: where the file comes from (the `view_image` tool resolves it through the sandbox)
//! or how the bytes travel to a provider (base64, in the providers crate).

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, ImageFormat, ImageReader, Limits};

/// Largest image file accepted, in bytes.
pub const MAX_IMAGE_BYTES: u64 = 20 << 20;
/// Longest side sent to a model, in pixels: Anthropic's recommended maximum; larger images are
/// downscaled by the providers anyway, at the same token cost.
pub const MAX_LONG_SIDE: u32 = 1568;
/// Largest prepared file sent as it is: base64 of it stays under Anthropic's 5 MB per image.
pub const MAX_SEND_BYTES: usize = 3_750_000;
/// Memory the decoder may take: a 20 MB file can describe a far larger picture, and a
/// decompression bomb must fail instead of filling the memory. 8192 x 8192 RGBA fits.
const MAX_DECODE_ALLOC: u64 = 256 << 20;
/// JPEG quality of re-encoded photos: visually lossless for a model, a fraction of PNG's size.
const JPEG_QUALITY: u8 = 85;

/// An image ready to attach to a request.
#[derive(Clone, PartialEq, Eq)]
pub struct PreparedImage {
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    pub media_type: &'static str,
    /// File extension matching `media_type`.
    pub extension: &'static str,
    /// The encoded file.
    pub data: Vec<u8>,
    /// Size of the prepared image.
    pub width: u32,
    pub height: u32,
    /// Size of the original image.
    pub original_width: u32,
    pub original_height: u32,
    /// The original format's short name (`PNG`, `JPEG`, `GIF`, `WebP`).
    pub original_format: &'static str,
}

impl std::fmt::Debug for PreparedImage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedImage")
            .field("media_type", &self.media_type)
            .field("bytes", &self.data.len())
            .field("size", &(self.width, self.height))
            .field("original", &(self.original_width, self.original_height))
            .finish()
    }
}

/// Why an image could not be prepared; each says what the model can do about it.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ImagePrepError {
    /// Not a file in one of the four formats.
    #[error("{what}, not an image view_image can show; it takes jpg, png, webp and gif files")]
    Unsupported { what: String },
    /// The format was recognised but the data is broken (cut off, corrupt).
    #[error("it looks like a {format} image but could not be decoded ({detail})")]
    Corrupt {
        format: &'static str,
        detail: String,
    },
    /// The picture is too large to decode safely.
    #[error("the {format} image is too large to decode ({detail}); make a smaller copy first")]
    TooLarge {
        format: &'static str,
        detail: String,
    },
    /// Encoding the downscaled image failed (should not happen with in-memory buffers).
    #[error("the image could not be re-encoded: {0}")]
    Encode(String),
}

/// The dimensions an image of `width` x `height` is sent at: unchanged when its long side fits
/// [`MAX_LONG_SIDE`], else scaled to it with the aspect ratio kept (rounded, at least 1 px).
pub fn target_size(width: u32, height: u32) -> (u32, u32) {
    let long = width.max(height);
    if long <= MAX_LONG_SIDE {
        return (width, height);
    }
    let scale = |side: u32| {
        let scaled =
            (u64::from(side) * u64::from(MAX_LONG_SIDE) + u64::from(long) / 2) / u64::from(long);
        (scaled as u32).max(1)
    };
    if width >= height {
        (MAX_LONG_SIDE, scale(height))
    } else {
        (scale(width), MAX_LONG_SIDE)
    }
}

/// The short name and media type of a format models accept, or `None`.
fn accepted(format: ImageFormat) -> Option<(&'static str, &'static str, &'static str)> {
    Some(match format {
        ImageFormat::Png => ("PNG", "image/png", "png"),
        ImageFormat::Jpeg => ("JPEG", "image/jpeg", "jpg"),
        ImageFormat::Gif => ("GIF", "image/gif", "gif"),
        ImageFormat::WebP => ("WebP", "image/webp", "webp"),
        _ => return None,
    })
}

/// Prepares the bytes of an image file for a model.
pub fn prepare(bytes: &[u8]) -> Result<PreparedImage, ImagePrepError> {
    let format = image::guess_format(bytes).map_err(|_| ImagePrepError::Unsupported {
        what: describe_unknown(bytes),
    })?;
    let Some((name, media_type, extension)) = accepted(format) else {
        let ext = format.extensions_str().first().copied().unwrap_or("other");
        return Err(ImagePrepError::Unsupported {
            what: format!("it is a {} image", ext.to_ascii_uppercase()),
        });
    };
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_DECODE_ALLOC);
    reader.limits(limits);
    let img = reader.decode().map_err(|e| match e {
        image::ImageError::Limits(l) => ImagePrepError::TooLarge {
            format: name,
            detail: l.to_string(),
        },
        other => ImagePrepError::Corrupt {
            format: name,
            detail: other.to_string(),
        },
    })?;
    let (ow, oh) = (img.width(), img.height());
    let (w, h) = target_size(ow, oh);
    let prepared = |media_type, extension, data| PreparedImage {
        media_type,
        extension,
        data,
        width: w,
        height: h,
        original_width: ow,
        original_height: oh,
        original_format: name,
    };
    if (w, h) == (ow, oh) && bytes.len() <= MAX_SEND_BYTES {
        // Already small enough: the original file loses nothing to re-encoding.
        return Ok(prepared(media_type, extension, bytes.to_vec()));
    }
    let img = if (w, h) == (ow, oh) {
        img
    } else {
        img.resize_exact(w, h, FilterType::CatmullRom)
    };
    let (media_type, extension, data) = encode(&img, format)?;
    Ok(prepared(media_type, extension, data))
}

/// PNG for pictures with transparency or that were PNG/GIF (drawings, screenshots), as long
/// as it stays under [`MAX_SEND_BYTES`]; JPEG otherwise.
fn encode(
    img: &DynamicImage,
    source: ImageFormat,
) -> Result<(&'static str, &'static str, Vec<u8>), ImagePrepError> {
    let lossless_source = matches!(source, ImageFormat::Png | ImageFormat::Gif);
    if img.color().has_alpha() || lossless_source {
        let mut png = Vec::new();
        img.write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
            .map_err(|e| ImagePrepError::Encode(e.to_string()))?;
        if png.len() <= MAX_SEND_BYTES {
            return Ok(("image/png", "png", png));
        }
    }
    let mut jpeg = Vec::new();
    JpegEncoder::new_with_quality(&mut jpeg, JPEG_QUALITY)
        .encode_image(&DynamicImage::ImageRgb8(img.to_rgb8()))
        .map_err(|e| ImagePrepError::Encode(e.to_string()))?;
    Ok(("image/jpeg", "jpg", jpeg))
}

/// What a file that is no image format we know probably is.
fn describe_unknown(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "the file is empty".into();
    }
    if bytes.starts_with(b"%PDF") {
        return "it is a PDF document".into();
    }
    let head = &bytes[..bytes.len().min(8192)];
    if !head.contains(&0) && std::str::from_utf8(head).is_ok() {
        return "it is a text file".into();
    }
    "its format is not one view_image knows".into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgb, RgbImage, Rgba, RgbaImage};

    fn encoded(img: &DynamicImage, format: ImageFormat) -> Vec<u8> {
        let mut out = Vec::new();
        img.write_to(&mut Cursor::new(&mut out), format).unwrap();
        out
    }

    /// A picture with detail (a gradient), so scaling and encoding have work to do.
    fn gradient(w: u32, h: u32) -> DynamicImage {
        DynamicImage::ImageRgb8(RgbImage::from_fn(w, h, |x, y| {
            Rgb([(x % 256) as u8, (y % 256) as u8, ((x + y) % 256) as u8])
        }))
    }

    fn decoded(p: &PreparedImage) -> DynamicImage {
        image::load_from_memory(&p.data).unwrap()
    }

    #[test]
    fn the_long_side_is_scaled_to_the_limit_keeping_the_ratio() {
        assert_eq!(target_size(4000, 1000), (1568, 392));
        assert_eq!(target_size(1000, 4000), (392, 1568));
        assert_eq!(target_size(3000, 3000), (1568, 1568));
        assert_eq!(target_size(1568, 10), (1568, 10), "exactly the limit stays");
        assert_eq!(target_size(20000, 3), (1568, 1), "never 0 px");
        assert_eq!(target_size(1, 1), (1, 1));
    }

    #[test]
    fn a_wide_png_is_downscaled_to_1568_by_392() {
        let png = encoded(&gradient(4000, 1000), ImageFormat::Png);
        let p = prepare(&png).unwrap();
        assert_eq!((p.width, p.height), (1568, 392));
        assert_eq!((p.original_width, p.original_height), (4000, 1000));
        assert_eq!(p.media_type, "image/png");
        let back = decoded(&p);
        assert_eq!((back.width(), back.height()), (1568, 392));
    }

    #[test]
    fn a_tall_jpeg_is_downscaled_and_stays_jpeg() {
        let jpg = encoded(&gradient(900, 3600), ImageFormat::Jpeg);
        let p = prepare(&jpg).unwrap();
        assert_eq!((p.width, p.height), (392, 1568));
        assert_eq!((p.media_type, p.extension), ("image/jpeg", "jpg"));
        assert_eq!(image::guess_format(&p.data).unwrap(), ImageFormat::Jpeg);
        assert_eq!(decoded(&p).height(), 1568);
    }

    #[test]
    fn small_images_of_each_format_are_sent_as_they_are() {
        for (format, media_type) in [
            (ImageFormat::Png, "image/png"),
            (ImageFormat::Jpeg, "image/jpeg"),
            (ImageFormat::Gif, "image/gif"),
            (ImageFormat::WebP, "image/webp"),
        ] {
            let img = if format == ImageFormat::Gif || format == ImageFormat::WebP {
                DynamicImage::ImageRgba8(RgbaImage::from_pixel(64, 48, Rgba([200, 10, 10, 255])))
            } else {
                gradient(64, 48)
            };
            let bytes = encoded(&img, format);
            let p = prepare(&bytes).unwrap();
            assert_eq!(p.media_type, media_type, "{format:?}");
            assert_eq!((p.width, p.height), (64, 48), "{format:?}");
            assert_eq!(p.data, bytes, "{format:?} unchanged");
        }
    }

    #[test]
    fn a_large_transparent_webp_becomes_a_png_keeping_alpha() {
        let img = DynamicImage::ImageRgba8(RgbaImage::from_fn(2000, 500, |x, _| {
            Rgba([255, 0, 0, (x % 256) as u8])
        }));
        let p = prepare(&encoded(&img, ImageFormat::WebP)).unwrap();
        assert_eq!((p.width, p.height), (1568, 392));
        assert_eq!(p.media_type, "image/png");
        assert!(decoded(&p).color().has_alpha());
    }

    #[test]
    fn other_formats_and_non_images_are_refused_with_what_they_are() {
        // Only the magic bytes matter: the BMP and TIFF codecs are not even compiled in.
        let err = prepare(b"BM\x36\x00\x00\x00\x00\x00\x00\x00")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("BMP image") && err.contains("jpg, png, webp and gif"),
            "{err}"
        );
        let err = prepare(b"II*\x00\x08\x00\x00\x00").unwrap_err().to_string();
        assert!(err.contains("TIFF image"), "{err}");
        let err = prepare(b"just some notes\n").unwrap_err().to_string();
        assert!(err.contains("text file"), "{err}");
        let err = prepare(b"%PDF-1.7 ...").unwrap_err().to_string();
        assert!(err.contains("PDF"), "{err}");
        let err = prepare(b"").unwrap_err().to_string();
        assert!(err.contains("empty"), "{err}");
    }

    #[test]
    fn a_cut_off_png_is_reported_as_corrupt() {
        let png = encoded(&gradient(300, 300), ImageFormat::Png);
        let err = prepare(&png[..png.len() / 2]).unwrap_err();
        assert!(
            matches!(err, ImagePrepError::Corrupt { format: "PNG", .. }),
            "{err:?}"
        );
    }

    #[test]
    fn a_decompression_bomb_fails_instead_of_filling_memory() {
        // A header promising 20000 x 20000 RGBA (1.6 GB decoded) in a file of a few bytes:
        // the limit must stop it before any pixel is read.
        let mut png = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut png, 20000, 20000);
            enc.set_color(png::ColorType::Rgba);
            let mut w = enc.write_header().unwrap();
            // The start of a zlib stream: enough for the decoder to reach its limit check.
            w.write_chunk(png::chunk::IDAT, &[0x78, 0x9c]).unwrap();
        }
        assert!(png.len() < MAX_IMAGE_BYTES as usize, "{}", png.len());
        let err = prepare(&png).unwrap_err();
        assert!(matches!(err, ImagePrepError::TooLarge { .. }), "{err:?}");
    }
}
