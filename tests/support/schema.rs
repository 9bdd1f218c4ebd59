//! Validate JSON against a schema vendored in `tests/hooks/schemas/` (sources in its README).

use std::path::Path;

use serde_json::Value;

/// Every validation error of `v` against the named vendored schema (empty when valid).
pub(crate) fn validate(schema_file: &str, v: &Value) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hooks/schemas")
        .join(schema_file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read schema {}: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("schema {} is not JSON: {e}", path.display()));
    let validator = jsonschema::validator_for(&schema)
        .unwrap_or_else(|e| panic!("schema {} does not compile: {e}", path.display()));
    validator
        .iter_errors(v)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}
