//! The docs read on their own: no tracker references a reader cannot
//! follow, and every relative link leads to a file of the repository.

use std::path::{Path, PathBuf};

/// The README, the genomes' page and everything under docs/.
pub(super) fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md"), root.join("genomes/README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

#[test]
fn the_docs_name_no_issue_of_the_tracker() {
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            let numbered = lower.match_indices("issue").any(|(at, _)| {
                let after = lower[at + 5..].trim_start_matches(['s', ' ']);
                after.starts_with(|c: char| c.is_ascii_digit())
            });
            let bare = lower.contains("the issue");
            assert!(
                !numbered && !bare,
                "{}:{}: a tracker reference: {line}",
                page.display(),
                n + 1
            );
        }
    }
}

#[test]
fn every_relative_link_leads_to_a_file() {
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let dir = page.parent().unwrap();
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = rest[..end].split('#').next().unwrap();
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            assert!(
                dir.join(target).exists(),
                "{}: the link to {target} leads nowhere",
                page.display()
            );
        }
    }
}
