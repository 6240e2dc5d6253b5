//! Files for file inputs: when a page asks for a file (a click on `<input type=file>`),
//! the tab answers with a small generated file of a type the input accepts, never a
//! native dialog that would wait for a person.

use std::path::PathBuf;

/// A 1x1 transparent PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
    0x42, 0x60, 0x82,
];

/// A one-page PDF with no content.
const PDF: &str = "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n\
2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n\
3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>endobj\n\
trailer<</Root 1 0 R>>\n%%EOF\n";

/// The kinds of sample file, by the names and types an `accept` attribute lists.
const SAMPLES: [(&str, &[&str]); 5] = [
    (
        "sample.png",
        &["image/", ".png", ".jpg", ".jpeg", ".gif", ".webp"],
    ),
    ("sample.pdf", &["application/pdf", ".pdf"]),
    ("sample.csv", &["text/csv", ".csv"]),
    ("sample.json", &["application/json", ".json"]),
    ("sample.txt", &["text/", ".txt"]),
];

/// A small file of a type that `accept` (the input's attribute, empty when none) takes,
/// written once into the system's temporary folder; `None` when it cannot be written.
pub(crate) fn sample_file(accept: &str) -> Option<PathBuf> {
    let accept = accept.to_ascii_lowercase();
    let wanted: Vec<&str> = accept
        .split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .collect();
    let name = SAMPLES
        .iter()
        .find(|(_, kinds)| {
            wanted.iter().any(|w| {
                kinds
                    .iter()
                    .any(|k| w.starts_with(k) || *w == k.trim_end_matches('/'))
            })
        })
        .map_or("sample.txt", |(name, _)| *name);
    let dir = std::env::temp_dir().join("curio-uploads");
    let path = dir.join(name);
    if !path.exists() {
        std::fs::create_dir_all(&dir).ok()?;
        let bytes: Vec<u8> = match name {
            "sample.png" => PNG.to_vec(),
            "sample.pdf" => PDF.as_bytes().to_vec(),
            "sample.csv" => b"name,amount\nAda,42\n".to_vec(),
            "sample.json" => b"{\"name\": \"Ada\"}\n".to_vec(),
            _ => b"A sample file from Curio.\n".to_vec(),
        };
        // Written beside and renamed, so that a reader never sees half a file.
        let part = dir.join(format!("{name}.{}.part", std::process::id()));
        std::fs::write(&part, bytes).ok()?;
        std::fs::rename(&part, &path).ok()?;
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_fits_what_the_input_accepts() {
        let name = |accept: &str| {
            sample_file(accept)
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        };
        assert_eq!(name("image/*"), "sample.png");
        assert_eq!(name(".jpg, .jpeg"), "sample.png");
        assert_eq!(name("application/pdf"), "sample.pdf");
        assert_eq!(name(".csv"), "sample.csv");
        assert_eq!(name(""), "sample.txt");
        let png = std::fs::read(sample_file("image/png").unwrap()).unwrap();
        assert!(png.starts_with(b"\x89PNG"));
    }
}
