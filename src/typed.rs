//! What a person types: a line of input is bytes until proven text (a
//! stray byte is one refusal, and the session goes on), and a message that
//! echoes what was typed shows its control characters escaped and a long
//! text cut, so that no input can clear the screen or flood it.

use std::io;

/// The most characters of what a person typed that a message echoes.
const ECHOED: usize = 80;

/// `text` as typed, for a message that echoes it: control characters
/// escaped (a function key's escape sequence, or `\e[2J` that would clear
/// the screen, shows as `\u{1b}…`), and a long text cut with a count of
/// what was left out.
pub fn shown(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().take(ECHOED) {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    let left = text.chars().count().saturating_sub(ECHOED);
    if left > 0 {
        out.push_str(&format!("… ({left} more characters)"));
    }
    out
}

/// The longest input line read: a position or a move is far shorter.
const LONGEST_LINE: u64 = 64 * 1024;

/// Reads one line of `input` as bytes until proven text: `None` at the end,
/// `Some(Err(why))` for a line that is not UTF-8 text or too long (the
/// line is consumed, and the session can go on), else its text less the
/// line end.
pub fn read_input_line(input: &mut dyn io::BufRead) -> io::Result<Option<Result<String, String>>> {
    use io::{BufRead as _, Read as _};
    let mut bytes = Vec::new();
    let read = (&mut *input)
        .take(LONGEST_LINE)
        .read_until(b'\n', &mut bytes)?;
    if read == 0 {
        return Ok(None);
    }
    if bytes.last() != Some(&b'\n') && read as u64 == LONGEST_LINE {
        let rest = input.skip_until(b'\n')?;
        return Ok(Some(Err(format!(
            "a line of {} bytes; a line is at most {LONGEST_LINE} bytes",
            read + rest
        ))));
    }
    while matches!(bytes.last(), Some(b'\n' | b'\r')) {
        bytes.pop();
    }
    Ok(Some(String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        format!(
            "not UTF-8 text (byte {:#04x} at {}): type the moves as text",
            e.as_bytes()[at],
            at + 1
        )
    })))
}

#[cfg(test)]
mod tests {
    use super::{read_input_line, shown};

    #[test]
    fn input_lines_are_bytes_until_proven_text() {
        let mut input: &[u8] = b"5\n\xe9\n1\r\n";
        assert_eq!(read_input_line(&mut input).unwrap(), Some(Ok("5".into())));
        let bad = read_input_line(&mut input).unwrap().unwrap().unwrap_err();
        assert!(bad.contains("byte 0xe9 at 1"), "{bad}");
        assert_eq!(read_input_line(&mut input).unwrap(), Some(Ok("1".into())));
        assert_eq!(read_input_line(&mut input).unwrap(), None);
        let long = [b"1".repeat(100_000), b"\n2\n".to_vec()].concat();
        let mut input: &[u8] = &long;
        let cut = read_input_line(&mut input).unwrap().unwrap().unwrap_err();
        assert!(cut.starts_with("a line of 100001 bytes"), "{cut}");
        assert_eq!(read_input_line(&mut input).unwrap(), Some(Ok("2".into())));
    }

    #[test]
    fn what_a_person_typed_is_echoed_escaped_and_cut() {
        assert_eq!(shown("it's 5"), "it's 5");
        assert_eq!(shown("\u{1b}[2J\u{1b}[H"), "\\u{1b}[2J\\u{1b}[H");
        let long = "1".repeat(131_072);
        let echoed = shown(&long);
        assert!(echoed.ends_with("… (130992 more characters)"), "{echoed}");
        assert!(echoed.len() < 200);
    }
}
