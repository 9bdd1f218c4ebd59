//! Text normalisation with an offset map back to the original (placeholder until written).
