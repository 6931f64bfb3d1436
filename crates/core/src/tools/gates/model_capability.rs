//! Gate 3: tools that need a capability the model lacks (view_image needs vision).

use crate::tools::assembly::ModelCaps;
use crate::tools::ToolMeta;

/// Hidden when the tool needs vision and the model has none.
pub fn check(meta: &ToolMeta, model: &ModelCaps) -> Option<String> {
    if meta.needs_vision && !model.vision {
        if model.name.is_empty() {
            return Some("no model is configured, so none is known to accept images".into());
        }
        return Some(format!(
            "model `{}` does not accept images (not marked as a vision model)",
            model.name
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::ToolSource;

    #[test]
    fn vision_tools_need_a_vision_model() {
        let meta = ToolMeta {
            needs_vision: true,
            ..ToolMeta::new(ToolSource::Builtin, "builtin")
        };
        let mut model = ModelCaps {
            name: "llama3".into(),
            vision: false,
        };
        assert!(check(&meta, &model).unwrap().contains("llama3"));
        model.vision = true;
        assert_eq!(check(&meta, &model), None);
        let unnamed = ModelCaps {
            name: String::new(),
            vision: false,
        };
        assert!(check(&meta, &unnamed)
            .unwrap()
            .contains("no model is configured"));
    }
}
