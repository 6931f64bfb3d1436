//! Argument parsing shared by the file tools: each getter says how to fix the call when the
//! value is missing or of the wrong kind.

use serde_json::{Map, Value};
use workbench_core::tools::ToolError;

/// The arguments object of one call, with the tool's accepted names for error messages.
pub struct Args<'a> {
    tool: &'a str,
    obj: &'a Map<String, Value>,
}

impl<'a> Args<'a> {
    /// Checks that `args` is an object whose keys are all in `known`.
    pub fn new(tool: &'a str, args: &'a Value, known: &[&str]) -> Result<Self, ToolError> {
        let Some(obj) = args.as_object() else {
            return Err(ToolError::InvalidArguments(format!(
                "the arguments of {tool} must be a JSON object with {}, got {}",
                known.join(", "),
                kind(args)
            )));
        };
        if let Some(bad) = obj.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(ToolError::InvalidArguments(format!(
                "{tool} has no argument `{bad}`; it takes {}",
                known.join(", ")
            )));
        }
        Ok(Self { tool, obj })
    }

    /// A required string; `example` shows a good value.
    pub fn string(&self, name: &str, example: &str) -> Result<&'a str, ToolError> {
        match self.obj.get(name) {
            Some(Value::String(s)) => Ok(s),
            None | Some(Value::Null) => Err(ToolError::InvalidArguments(format!(
                "`{name}` is required: call {} with {{\"{name}\": {example}}}",
                self.tool
            ))),
            Some(other) => Err(ToolError::InvalidArguments(format!(
                "`{name}` must be a string such as {example}, got {}",
                kind(other)
            ))),
        }
    }

    /// An optional string.
    pub fn opt_string(&self, name: &str) -> Result<Option<&'a str>, ToolError> {
        match self.obj.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(ToolError::InvalidArguments(format!(
                "`{name}` must be a string, got {}",
                kind(other)
            ))),
        }
    }

    /// An optional boolean, `default` when absent.
    pub fn bool(&self, name: &str, default: bool) -> Result<bool, ToolError> {
        match self.obj.get(name) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(ToolError::InvalidArguments(format!(
                "`{name}` must be true or false, got {}",
                kind(other)
            ))),
        }
    }

    /// An optional integer in `min..=max`; integral floats (`5.0`) are accepted because some
    /// models write every number that way.
    pub fn int(&self, name: &str, min: u64, max: u64) -> Result<Option<u64>, ToolError> {
        let v = match self.obj.get(name) {
            None | Some(Value::Null) => return Ok(None),
            Some(v) => v,
        };
        let n = v.as_u64().or_else(|| {
            v.as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                .map(|f| f as u64)
        });
        match n {
            Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(ToolError::InvalidArguments(format!(
                "`{name}` must be an integer from {min} to {max}, got {v}"
            ))),
        }
    }
}

/// A JSON value's kind, for messages.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
