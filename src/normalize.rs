//! Text normalisation with an offset map back to the original (interim version; replaced
//! by the full ANSI/NFKC implementation).

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normalized {
    pub text: String,
    map: Vec<usize>,
    notes: Vec<String>,
}

impl Normalized {
    pub fn to_original(&self, offset: usize) -> usize {
        self.map.get(offset).copied().unwrap_or_else(|| self.map.last().copied().unwrap_or(0))
    }
    pub fn span_to_original(&self, start: usize, end: usize) -> crate::Span {
        crate::Span::new(self.to_original(start), self.to_original(end))
    }
    pub fn changed(&self) -> bool {
        !self.notes.is_empty()
    }
    pub fn notes(&self) -> &[String] {
        &self.notes
    }
}

pub fn normalize(original: &str) -> Normalized {
    let mut text = String::new();
    let mut map = Vec::new();
    let mut notes = Vec::new();
    for (i, c) in original.char_indices() {
        if c == '\0' {
            notes.push("removed NUL".to_string());
            continue;
        }
        let start = text.len();
        text.push(c);
        for _ in start..text.len() {
            map.push(i);
        }
    }
    map.push(original.len());
    Normalized { text, map, notes }
}
