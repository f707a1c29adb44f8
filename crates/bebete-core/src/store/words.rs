//! Small pieces of the messages every layer writes: an English article, a
//! size, a list of names.

/// "a" or "an" before `word`, as English reads it ("an othello genome").
pub fn article(word: &str) -> &'static str {
    match word.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// `word` after its article: "an othello", "a tictactoe (symmetric encoder)".
pub fn with_article(word: &str) -> String {
    format!("{} {word}", article(word))
}

/// A size for people, in powers of 1000 as `ls -lh --si` and file managers
/// say: `812 bytes`, `4.7 kB`, `36.7 MB`, `64 MB` (a whole number without
/// its `.0`), `1.2 GB`.
pub fn size_in_words(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["kB", "MB", "GB", "TB"];
    if bytes < 1000 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1000.0;
    let mut unit = 0;
    while value >= 999.95 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    let number = format!("{value:.1}");
    format!("{} {}", number.trim_end_matches(".0"), UNITS[unit])
}

/// Names as a sentence lists them: `a`, `a or b`, `a, b and c` (with
/// `conjunction` "or" or "and").
pub fn listed<S: AsRef<str>>(names: &[S], conjunction: &str) -> String {
    let names: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("{} {conjunction} {last}", rest.join(", "))
        }
        _ => names.join(""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_article_reads_as_english() {
        assert_eq!(article("othello (value genome)"), "an");
        assert_eq!(article("tictactoe"), "a");
        assert_eq!(with_article("othello"), "an othello");
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(size_in_words(0), "0 bytes");
        assert_eq!(size_in_words(999), "999 bytes");
        assert_eq!(size_in_words(1000), "1 kB");
        assert_eq!(size_in_words(4_700), "4.7 kB");
        assert_eq!(size_in_words(262_144), "262.1 kB");
        assert_eq!(size_in_words(999_949), "999.9 kB");
        assert_eq!(size_in_words(999_950), "1 MB");
        assert_eq!(size_in_words(36_700_000), "36.7 MB");
        assert_eq!(size_in_words(64_000_000), "64 MB");
        assert_eq!(size_in_words(1_234_000_000), "1.2 GB");
    }

    #[test]
    fn lists_read_as_sentences() {
        assert_eq!(listed(&["a"], "or"), "a");
        assert_eq!(listed(&["a", "b"], "or"), "a or b");
        assert_eq!(listed(&["a", "b", "c"], "and"), "a, b and c");
        assert_eq!(listed::<&str>(&[], "and"), "");
    }
}
