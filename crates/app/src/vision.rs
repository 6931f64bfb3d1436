//! Whether the model of a run takes images, which decides whether `view_image` is offered
//! (the model-capability gate). The user's word for a model wins; without it, the model's
//! name is matched against families known to accept images.

use std::collections::BTreeMap;

use crate::{App, AppError};

/// Settings key: `{model name: takes images}` as the user set it.
pub const MODEL_VISION_SETTING: &str = "models.vision";

/// Name fragments of model families that accept images (lower case). A name containing one
/// counts as a vision model unless the user said otherwise.
const VISION_NAME_HINTS: &[&str] = &[
    // OpenAI
    "gpt-4o",
    "gpt-4.1",
    "gpt-4-turbo",
    "gpt-4-vision",
    "gpt-5",
    "chatgpt-4o",
    "o1",
    "o3",
    "o4",
    // Anthropic: every Claude 3 and later model
    "claude-3",
    "claude-sonnet-4",
    "claude-opus-4",
    "claude-haiku-4",
    // Google
    "gemini",
    "gemma3",
    "gemma-3",
    // Open-weight vision models as local servers name them
    "llava",
    "bakllava",
    "vision",
    "-vl",
    "_vl",
    "qwen-vl",
    "qvq",
    "minicpm-v",
    "moondream",
    "pixtral",
    "mistral-small3.1",
    "mistral-small-3.1",
    "mistral-small3.2",
    "mistral-medium",
    "llama4",
    "llama-4",
    "internvl",
    "cogvlm",
    "granite3.2-vision",
];

/// Models of those families that take text only.
const TEXT_ONLY_NAME_HINTS: &[&str] = &["o1-mini", "o1-preview", "o3-mini"];

/// Whether the model's name is one of the families known to accept images.
pub fn name_suggests_vision(model: &str) -> bool {
    let name = model.to_ascii_lowercase();
    // A provider prefix (`openai/gpt-4o`) or a tag (`llava:13b`) does not change the family.
    let base = name.rsplit('/').next().unwrap_or(&name);
    if TEXT_ONLY_NAME_HINTS.iter().any(|h| base.starts_with(h)) {
        return false;
    }
    VISION_NAME_HINTS.iter().any(|hint| match *hint {
        // Short OpenAI reasoning names only at the start: "o1" is inside many other names.
        "o1" | "o3" | "o4" => base.starts_with(hint),
        _ => base.contains(hint),
    })
}

impl App {
    /// Whether `model` takes images: the user's setting for it, else its name.
    pub fn model_vision(&self, model: &str) -> Result<bool, AppError> {
        Ok(self
            .model_vision_overrides()?
            .get(model)
            .copied()
            .unwrap_or_else(|| name_suggests_vision(model)))
    }

    /// Says whether `model` takes images (`Some`), or goes back to guessing from its name
    /// (`None`).
    pub fn set_model_vision(&self, model: &str, vision: Option<bool>) -> Result<(), AppError> {
        let model = model.trim();
        if model.is_empty() {
            return Err(AppError::Invalid("the model name is empty".into()));
        }
        let mut all = self.model_vision_overrides()?;
        match vision {
            Some(v) => all.insert(model.to_string(), v),
            None => all.remove(model),
        };
        self.store.set_setting(MODEL_VISION_SETTING, &all)?;
        Ok(())
    }

    fn model_vision_overrides(&self) -> Result<BTreeMap<String, bool>, AppError> {
        Ok(self
            .store
            .get_setting::<BTreeMap<String, bool>>(MODEL_VISION_SETTING)?
            .unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_vision_families_are_recognised_by_name() {
        for name in [
            "gpt-4o",
            "gpt-4o-mini",
            "openai/gpt-4.1",
            "o4-mini",
            "claude-3-5-sonnet-20241022",
            "claude-sonnet-4-20250514",
            "llava:13b",
            "llama3.2-vision:11b",
            "qwen2.5-vl-7b-instruct",
            "gemma3:27b",
            "Pixtral-12B",
        ] {
            assert!(name_suggests_vision(name), "{name}");
        }
        for name in [
            "llama3",
            "llama3.1:8b",
            "qwen2.5-coder",
            "mistral",
            "deepseek-r1",
            "gpt-3.5-turbo",
            "phi3",
            "hello",
            "foo1",
            "o3-mini",
            "o1-mini-2024-09-12",
        ] {
            assert!(!name_suggests_vision(name), "{name}");
        }
    }
}
